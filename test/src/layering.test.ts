import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The engine never imports the UI: dependencies point components/ -> store -> src/.
const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

describe('layering', () => {
  it('src/ imports neither react, ink nor components/', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)) {
        const spec = m[1]!;
        if (/^(react|ink|ink-[\w-]+)(\/|$)/.test(spec) || spec.includes('components/')) {
          offenders.push(`${path.relative(root, file)} imports ${spec}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('src/ does not write to the console', () => {
    const offenders = sourceFiles(path.join(root, 'src')).filter((f) => /\bconsole\.(log|error|warn|info)\(/.test(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(root, f))).toEqual([]);
  });
});
