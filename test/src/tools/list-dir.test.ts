import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createListDirTool, MAX_ENTRIES } from '../../../src/tools/list-dir.js';
import type { ToolContext } from '../../../src/tools/tool.js';

let dir: string;
let ctx: ToolContext;
const tool = createListDirTool();

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-ls-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('list_dir', () => {
  it('lists sorted entries with dirs marked, hiding .git and .gitignored entries', async () => {
    await fs.mkdir(path.join(dir, '.git'));
    await fs.mkdir(path.join(dir, 'src'));
    await fs.mkdir(path.join(dir, 'dist'));
    await fs.writeFile(path.join(dir, '.gitignore'), 'dist/\n*.log\n');
    await fs.writeFile(path.join(dir, 'b.ts'), '');
    await fs.writeFile(path.join(dir, 'a.ts'), '');
    await fs.writeFile(path.join(dir, 'debug.log'), '');
    const r = await tool.call({}, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe('.gitignore\na.ts\nb.ts\nsrc/');
  });

  it('applies nested .gitignore files and lists subdirectories by relative path', async () => {
    await fs.mkdir(path.join(dir, 'pkg'));
    await fs.writeFile(path.join(dir, 'pkg', '.gitignore'), 'secret.txt\n');
    await fs.writeFile(path.join(dir, 'pkg', 'secret.txt'), '');
    await fs.writeFile(path.join(dir, 'pkg', 'main.ts'), '');
    const r = await tool.call({ path: 'pkg' }, ctx);
    expect(r.content).toBe('.gitignore\nmain.ts');
  });

  it('caps long listings with a note', async () => {
    await Promise.all(
      Array.from({ length: MAX_ENTRIES + 5 }, (_, i) => fs.writeFile(path.join(dir, `f${String(i).padStart(4, '0')}`), '')),
    );
    const r = await tool.call({ path: '.' }, ctx);
    const lines = r.content.split('\n');
    expect(lines.filter((l) => l.startsWith('f'))).toHaveLength(MAX_ENTRIES);
    expect(r.content).toContain(`Showing ${MAX_ENTRIES} of ${MAX_ENTRIES + 5} entries`);
  });

  it('names a missing directory and points files to read_file', async () => {
    const missing = await tool.call({ path: 'nowhere' }, ctx);
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('nowhere');
    await fs.writeFile(path.join(dir, 'x.txt'), '');
    const file = await tool.call({ path: 'x.txt' }, ctx);
    expect(file.isError).toBe(true);
    expect(file.content).toContain('read_file');
  });

  it('is read-only and concurrency safe', () => {
    expect(tool.kind).toBe('read');
    expect(tool.effects?.({})).toBe('none');
    expect(tool.isConcurrencySafe?.({})).toBe(true);
    expect(tool.paths?.({})).toEqual(['.']);
  });
});
