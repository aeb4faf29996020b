import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/run-cairn.js';

interface PackFile { path: string }

/** What `npm pack` would publish, from the built tree (the test run builds first). */
async function packedFiles(): Promise<string[]> {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot });
  const [pack] = JSON.parse(stdout) as Array<{ files: PackFile[] }>;
  return (pack?.files ?? []).map((f) => f.path).sort();
}

describe('the published package', () => {
  it('ships the bundle, the skills, the web page, README and LICENSE, and no tests or source maps', async () => {
    const files = await packedFiles();
    expect(files).toContain('dist/bundle/main.js');
    expect(files).toContain('README.md');
    expect(files).toContain('LICENSE');
    expect(files).toContain('package.json');
    expect(files.filter((f) => f.startsWith('dist/test/') || f.startsWith('test/'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.ts') || f.endsWith('.tsx'))).toEqual([]);
    expect(files).toContain('components/web/static/index.html'); // cairn serve's page
    const outside = files.filter((f) => !f.startsWith('dist/bundle/') && !f.startsWith('skills/') && !f.startsWith('components/web/static/') && !['README.md', 'LICENSE', 'package.json'].includes(f));
    expect(outside).toEqual([]);
  });
});
