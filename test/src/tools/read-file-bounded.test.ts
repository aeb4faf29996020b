import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import type { ToolContext } from '../../../src/tools/tool.js';

let dir: string;
let ctx: ToolContext;
const tool = createReadFileTool();
const SIZE = 600 * 1024 * 1024;

/** A file of `size` bytes made in an instant: `head` is written, the rest is a sparse hole, then `tail` at the end. */
async function sparse(name: string, head: string, size: number, tail = ''): Promise<string> {
  const file = path.join(dir, name);
  const handle = await fs.open(file, 'w');
  try {
    await handle.write(head, 0);
    await handle.truncate(size);
    if (tail) await handle.write(tail, size);
  } finally {
    await handle.close();
  }
  return file;
}

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-read-big-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('read_file on huge files', () => {
  it('shows the start of a 600 MB single-line file and says how long the line is', async () => {
    await sparse('one-line.txt', 'a'.repeat(64 * 1024), SIZE);
    const r = await tool.call({ path: 'one-line.txt' }, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.content.startsWith(`     1\t${'a'.repeat(2000)}…`)).toBe(true);
    expect(r.content).toContain('line 1 is 629,145,600 bytes');
    expect(r.content).toContain('600.0 MB');
    expect(r.content.length).toBeLessThan(3000);
    expect(r.display).toMatchObject({ startLine: 1, endLine: 1, totalLines: 1 });
  });

  it('pages past a huge line to the lines after it', async () => {
    await sparse('middle.txt', `first\nsecond${'b'.repeat(9000)}`, SIZE, '\nlast\n');
    const r = await tool.call({ path: 'middle.txt', offset: 3 }, ctx);
    expect(r.isError).toBeFalsy();
    expect(r.content).toBe('     3\tlast');
    const head = await tool.call({ path: 'middle.txt' }, ctx);
    expect(head.content).toContain('     1\tfirst\n     2\tsecond');
    expect(head.content).toContain('line 2 is 629,145,');
    expect(head.content).toContain('     3\tlast');
  });

  it('stops reading a huge line as soon as the call is interrupted', async () => {
    await sparse('slow.txt', 'a'.repeat(64 * 1024), SIZE);
    const controller = new AbortController();
    const pending = tool.call({ path: 'slow.txt' }, { ...ctx, signal: controller.signal });
    setImmediate(() => controller.abort()); // once the read is under way
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(r.content).toBe('Reading slow.txt was interrupted.');
  });
});
