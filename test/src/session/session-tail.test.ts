// The end of a session file, read for the TUI's first frame before the whole file is loaded: the
// same events loadSession reads there, whole turns from a prompt, and nothing from a file
// loadSession would refuse.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { loadSession } from '../../../src/session/session-loader.js';
import { readSessionTail } from '../../../src/session/session-tail.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

function turn(n: number): AgentEvent[] {
  return [
    { type: 'user_prompt', text: `question ${n}` },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `answer ${n}: ${'x'.repeat(n % 7 === 0 ? 3000 : 40)}` }] } },
  ];
}

async function sessionFile(events: readonly AgentEvent[], options: { header?: object; trailer?: string } = {}): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-tail-'));
  dirs.push(dir);
  const file = path.join(dir, 's.jsonl');
  const header = options.header ?? { type: 'session_header', version: 1, id: 'abc123', cwd: dir, created: '2026-11-30T00:00:00.000Z' };
  await fs.writeFile(file, [header, ...events].map((e) => `${JSON.stringify(e)}\n`).join('') + (options.trailer ?? ''));
  return file;
}

describe('readSessionTail', () => {
  it('a small session: every event, as loadSession reads them', async () => {
    const events = [1, 2, 3].flatMap(turn);
    const file = await sessionFile(events);
    const tail = await readSessionTail(file);
    expect(tail?.whole).toBe(true);
    expect(tail?.header.id).toBe('abc123');
    expect(tail?.events).toEqual((await loadSession(file)).events);
  });

  it('a long session: its last whole turns from a prompt, the same events loadSession ends with', async () => {
    const events = Array.from({ length: 4000 }, (_, n) => turn(n)).flat();
    const file = await sessionFile(events);
    const tail = await readSessionTail(file, { bytes: 64 * 1024, enough: 50 });
    const all = (await loadSession(file)).events;
    expect(tail?.whole).toBe(false);
    const got = tail?.events ?? [];
    expect(got.length).toBeGreaterThanOrEqual(50);
    expect(got.length).toBeLessThan(200);
    expect(got[0]?.type).toBe('user_prompt');
    expect(got).toEqual(all.slice(all.length - got.length));
  });

  it('a tail with fewer events than wanted: all the whole lines in it, the cut first line left out', async () => {
    const file = await sessionFile(Array.from({ length: 400 }, (_, n) => turn(n)).flat());
    const tail = await readSessionTail(file, { bytes: 8 * 1024, enough: 1000 });
    const all = (await loadSession(file)).events;
    const got = tail?.events ?? [];
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(all.slice(all.length - got.length));
  });

  it('a torn last line (a crash mid-write) is left out; the lines before it are read', async () => {
    const file = await sessionFile(turn(1), { trailer: '{"type":"user_prompt","te' });
    expect((await readSessionTail(file))?.events).toEqual(turn(1));
  });

  it('a record this cairn cannot read is left out, as loadSession leaves it out of its events', async () => {
    const events = [...turn(1), { type: 'from_the_future', x: 1 } as unknown as AgentEvent, ...turn(2)];
    const file = await sessionFile(events);
    expect((await readSessionTail(file))?.events).toEqual([...turn(1), ...turn(2)]);
  });

  it('nothing from a file loadSession refuses: no header, a newer format, a FIFO', async () => {
    const noHeader = await sessionFile(turn(1), { header: turn(0)[0] });
    expect(await readSessionTail(noHeader)).toBeUndefined();
    const newer = await sessionFile(turn(1), { header: { type: 'session_header', version: 99, id: 'n', cwd: '/', created: '' } });
    expect(await readSessionTail(newer)).toBeUndefined();
    const dir = path.dirname(newer);
    const fifo = path.join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(await readSessionTail(fifo)).toBeUndefined();
  });
});
