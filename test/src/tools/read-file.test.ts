import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import type { ToolContext } from '../../../src/tools/tool.js';

let dir: string;
let ctx: ToolContext;
const tool = createReadFileTool();

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-read-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('read_file', () => {
  it('prints lines numbered like cat -n, with the range in display', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\nbeta\ngamma\n');
    const r = await tool.call({ path: 'a.txt' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe('     1\talpha\n     2\tbeta\n     3\tgamma');
    expect(r.display).toEqual({ kind: 'read_file', path: 'a.txt', startLine: 1, endLine: 3, totalLines: 3 });
  });

  it('pages with a 1-based offset and a limit, and says how to continue', async () => {
    const lines = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n');
    await fs.writeFile(path.join(dir, 'ten.txt'), lines);
    const r = await tool.call({ path: path.join(dir, 'ten.txt'), offset: 4, limit: 2 }, ctx);
    expect(r.content.split('\n\n')[0]).toBe('     4\tline 4\n     5\tline 5');
    expect(r.content).toContain('offset=6');
    expect(r.display).toMatchObject({ startLine: 4, endLine: 5, totalLines: 10 });
  });

  it('truncates very long lines with a note', async () => {
    await fs.writeFile(path.join(dir, 'long.txt'), 'x'.repeat(5000));
    const r = await tool.call({ path: 'long.txt' }, ctx);
    expect(r.content).toContain('line truncated: 5000 characters');
    expect(r.content.length).toBeLessThan(2100);
  });

  it('names the missing path and suggests a similarly named sibling', async () => {
    await fs.writeFile(path.join(dir, 'config.json'), '{}');
    const r = await tool.call({ path: 'confg.json' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('confg.json');
    expect(r.content).toContain('Did you mean config.json?');
  });

  it('reports a missing file in a missing directory without a suggestion', async () => {
    const r = await tool.call({ path: 'nope/x.ts' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toBe('File not found: nope/x.ts.');
  });

  it('refuses binary files', async () => {
    await fs.writeFile(path.join(dir, 'data.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    const r = await tool.call({ path: 'data.bin' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/data\.bin looks like a binary file/);
  });

  it('refuses an image it cannot decode, naming it, and attaches nothing', async () => {
    await fs.writeFile(path.join(dir, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]));
    const r = await tool.call({ path: 'img.png' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^img\.png is not a readable image/);
    expect(r.attachments).toBeUndefined();
  });

  it('points directories to list_dir', async () => {
    await fs.mkdir(path.join(dir, 'src'));
    const r = await tool.call({ path: 'src' }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('src is a directory');
    expect(r.content).toContain('list_dir');
  });

  it('shows only the first lines of a file over 256 KB and explains paging', async () => {
    const line = 'y'.repeat(99);
    await fs.writeFile(path.join(dir, 'big.log'), `${Array.from({ length: 5000 }, () => line).join('\n')}\n`);
    const r = await tool.call({ path: 'big.log' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.display).toMatchObject({ startLine: 1, endLine: 2000, totalLines: 5000 });
    expect(r.content).toContain('big.log is large');
    expect(r.content).toMatch(/offset=2001 limit=2000/);
    const next = await tool.call({ path: 'big.log', offset: 4999 }, ctx);
    expect(next.content).toBe(`  4999\t${line}\n  5000\t${line}`);
  });

  it('caps a single read of huge lines at about 256 KB of text', async () => {
    await fs.writeFile(path.join(dir, 'wide.txt'), Array.from({ length: 400 }, () => 'z'.repeat(1990)).join('\n'));
    const r = await tool.call({ path: 'wide.txt' }, ctx);
    expect(r.content.length).toBeLessThan(270 * 1024);
    expect(r.content).toContain('is large');
  });

  it('says when the offset is past the end', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'one\ntwo\n');
    const r = await tool.call({ path: 'a.txt', offset: 9 }, ctx);
    expect(r.isError).toBe(true);
    expect(r.content).toBe('a.txt has 2 lines; offset 9 is past the end.');
  });

  it('reports empty files plainly', async () => {
    await fs.writeFile(path.join(dir, 'empty.txt'), '');
    const r = await tool.call({ path: 'empty.txt' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe('(empty.txt is empty)');
  });

  it('is a read-only, concurrency-safe read tool that reports its path', () => {
    expect(tool.kind).toBe('read');
    expect(tool.effects?.({ path: 'x' })).toBe('none');
    expect(tool.isConcurrencySafe?.({ path: 'x' })).toBe(true);
    expect(tool.paths?.({ path: '../outside.txt' })).toEqual(['../outside.txt']);
  });
});
