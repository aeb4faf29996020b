import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolContext } from '../../../src/tools/tool.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { displayOf } from '../../helpers/display.js';

let dir: string;
let ctx: ToolContext;
const tool = createWriteFileTool();

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-write-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('write_file', () => {
  it('creates parent directories and reports a created file with its line count', async () => {
    const r = await tool.call({ path: 'deep/er/new.ts', content: 'a\nb\n' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe('Created deep/er/new.ts (2 lines).');
    expect(await fs.readFile(path.join(dir, 'deep/er/new.ts'), 'utf8')).toBe('a\nb\n');
    expect(r.display).toMatchObject({ path: 'deep/er/new.ts', created: true, lines: 2 });
    expect(displayOf(r, 'write_file')?.diff).toContain('+a');
  });

  it('overwrites and shows a unified diff of old vs new', async () => {
    await fs.writeFile(path.join(dir, 'f.txt'), 'one\ntwo\nthree\n');
    const r = await tool.call({ path: 'f.txt', content: 'one\n2\nthree\n' }, ctx);
    expect(r.content).toMatch(/^Overwrote f\.txt \(3 lines\)\./);
    const diff = String(displayOf(r, 'write_file')?.diff);
    expect(diff).toContain('--- f.txt');
    expect(diff).toContain('-two');
    expect(diff).toContain('+2');
    expect(r.content).toContain('-two');
    expect(displayOf(r, 'write_file')?.created).toBe(false);
  });

  it('previews the diff without writing', async () => {
    await fs.writeFile(path.join(dir, 'f.txt'), 'old\n');
    const preview = await tool.preview?.({ path: 'f.txt', content: 'new\n' }, ctx);
    expect(preview).toContain('-old');
    expect(preview).toContain('+new');
    expect(await fs.readFile(path.join(dir, 'f.txt'), 'utf8')).toBe('old\n');
  });

  it('refuses to write over a directory, naming it', async () => {
    await fs.mkdir(path.join(dir, 'src'));
    const r = await tool.call({ path: 'src', content: 'x' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('src is a directory');
    expect(await tool.preview?.({ path: 'src', content: 'x' }, ctx)).toBeUndefined();
  });

  it('turns fs errors into readable results instead of throwing', async () => {
    await fs.writeFile(path.join(dir, 'file'), 'x');
    const r = await tool.call({ path: 'file/child.txt', content: 'x' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('file/child.txt');
  });

  it('is an edit tool that runs alone', () => {
    expect(tool.kind).toBe('edit');
    expect(tool.effects?.({ path: 'a', content: '' })).toBe('workspace');
    expect(tool.isConcurrencySafe?.({ path: 'a', content: '' })).toBe(false);
    expect(tool.paths?.({ path: 'a', content: '' })).toEqual(['a']);
  });
});
