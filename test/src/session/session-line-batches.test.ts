import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionLineBatches } from '../../../src/session/session-line-batches.js';
import type { SessionLine } from '../../../src/session/session-lines.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';

const dirs: string[] = [];
const fifos: string[] = [];
afterEach(async () => {
  for (const f of fifos.splice(0)) releaseFifo(f);
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function tempFile(content: string | Buffer): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-batches-')));
  dirs.push(dir);
  const file = path.join(dir, 's.jsonl');
  await fs.writeFile(file, content);
  return file;
}

async function batched(file: string, maxLineBytes?: number): Promise<SessionLine[]> {
  const out: SessionLine[] = [];
  for await (const batch of readSessionLineBatches(file, maxLineBytes ? { maxLineBytes } : {})) out.push(...batch);
  return out;
}

describe('readSessionLineBatches', () => {
  it('numbers lines across read chunks, keeps a last line with no newline, drops a BOM', async () => {
    const long = 'y'.repeat(3 * 1024 * 1024);
    const file = await tempFile(`\ufeffa\n\n${long}\nlast`);
    expect(await batched(file)).toEqual([
      { number: 1, text: 'a' },
      { number: 2, text: '' },
      { number: 3, text: long },
      { number: 4, text: 'last' },
    ]);
  });

  it('a line over the limit comes back as its length and first bytes, within a chunk or across chunks', async () => {
    const big = `{"type":"user_prompt","text":"${'z'.repeat(2 * 1024 * 1024)}"}`;
    const file = await tempFile(`short\n{"type":"user_prompt","text":"${'z'.repeat(5000)}"}\nafter\n${big}\nend\n`);
    const out = await batched(file, 1000);
    expect(out[0]).toEqual({ number: 1, text: 'short' });
    expect(out[1]).toMatchObject({ number: 2, tooLong: 5032, head: expect.stringMatching(/^\{"type":"user_prompt"/) });
    expect(out[2]).toEqual({ number: 3, text: 'after' });
    expect(out[3]).toMatchObject({ number: 4, tooLong: big.length });
    expect((out[3] as { head: string }).head).toBe(big.slice(0, 200));
    expect(out[4]).toEqual({ number: 5, text: 'end' });
    expect(out).toHaveLength(5);
  });

  it('gives every line whole and numbered on a file of many lines and multi-byte text around the chunk edges', async () => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 3.5 * 1024 * 1024; i++) {
      const line = JSON.stringify({ type: 'user_prompt', text: `${i} ${'é✓ 漢字 '.repeat(i % 97)}` });
      lines.push(line);
      size += line.length + 1;
    }
    const file = await tempFile(`${lines.join('\n')}\n`);
    const out = await batched(file);
    expect(out.map((l) => l.number)).toEqual(lines.map((_, i) => i + 1));
    expect(out.map((l) => ('text' in l ? l.text : ''))).toEqual(lines);
  });

  it('an empty file has no lines; a missing one rejects with ENOENT', async () => {
    expect(await batched(await tempFile(''))).toEqual([]);
    await expect(batched('/nonexistent/cairn/s.jsonl')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a FIFO is refused at once, naming it', { timeout: 5000 }, async () => {
    const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-batches-')));
    dirs.push(dir);
    const fifo = path.join(dir, 'pipe.jsonl');
    makeFifo(fifo);
    fifos.push(fifo);
    await expect(batched(fifo)).rejects.toThrow(`${fifo}: is a FIFO (named pipe), not a session file`);
  });
});
