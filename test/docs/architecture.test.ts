import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The docs name real files and real commands; these checks fail when the code moves under them.
const root = path.resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

const REPO_PATH = /`((?:src|components|test|docs|skills)\/[\w./-]*)`/g;

describe('docs', () => {
  it('every repository path a page names exists', () => {
    const missing: string[] = [];
    for (const file of markdownFiles(path.join(root, 'docs'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(REPO_PATH)) {
        const named = m[1]!.replace(/[.,:]$/, '');
        if (!fs.existsSync(path.join(root, named))) missing.push(`${path.relative(root, file)}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('every relative link between pages resolves', () => {
    const broken: string[] = [];
    for (const file of markdownFiles(path.join(root, 'docs'))) {
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        if (!fs.existsSync(path.resolve(path.dirname(file), target))) broken.push(`${path.relative(root, file)}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('architecture.md lists every slash command with the file that declares it', () => {
    const doc = fs.readFileSync(path.join(root, 'docs/architecture.md'), 'utf8').split('\n');
    const dir = path.join(root, 'components/commands');
    const declared: { name: string; file: string }[] = [];
    for (const name of fs.readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const text = fs.readFileSync(path.join(dir, name), 'utf8');
      for (const m of text.matchAll(/name: '([a-z][\w-]*)',\s*\n\s*(?:aliases|description|argHint):/g)) {
        declared.push({ name: m[1]!, file: `components/commands/${name}` });
      }
    }
    expect(declared.length).toBeGreaterThan(20);
    const unlisted = declared.filter(({ name, file }) => !doc.some((line) => line.includes(`\`/${name}\``) && line.includes(file)));
    expect(unlisted).toEqual([]);
  });
});
