// One reader of session files (session-records.ts); the loader, the resume tail, the session list
// and cairn serve's index fold over it. Checked on the golden file of every released format and on
// files with broken lines: each consumer gives what the file says, and a broken line is reported
// with its file and line without losing what comes after it.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { indexSessions } from '../../../src/serve/session-index.js';
import { listSessions } from '../../../src/session/session-list.js';
import { loadSession } from '../../../src/session/session-loader.js';
import { projectDir } from '../../../src/session/session-paths.js';
import { readSessionHeader, readSessionRecords, type SessionRecord } from '../../../src/session/session-records.js';
import { readSessionTail } from '../../../src/session/session-tail.js';

const GOLDEN_DIR = fileURLToPath(new URL('../../fixtures/sessions/', import.meta.url));

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function cairnHome(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-records-')));
  dirs.push(dir);
  return dir;
}

async function records(file: string): Promise<SessionRecord[]> {
  const out: SessionRecord[] = [];
  for await (const r of readSessionRecords(file)) out.push(r);
  return out;
}

/** The file's records as plain JSON, the header first: what every consumer is checked against. */
async function rawRecords(file: string): Promise<{ type: string; text?: string; cwd?: string }[]> {
  return (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as { type: string });
}

/** Puts a copy of `source` in a workspace's session folder under a cairn home, as `<id>.jsonl`. */
async function saved(home: string, cwd: string, id: string, text: string): Promise<string> {
  const dir = projectDir(home, cwd);
  await fs.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${id}.jsonl`);
  await fs.writeFile(file, text);
  return file;
}

const goldenFiles = async (): Promise<string[]> => (await fs.readdir(GOLDEN_DIR)).filter((n) => /^v\d+\.jsonl$/.test(n)).map((n) => path.join(GOLDEN_DIR, n));

describe('golden session files through every consumer', () => {
  it('the reader yields the header, then one event per record, each with its line', async () => {
    for (const file of await goldenFiles()) {
      const read = await records(file);
      const raw = await rawRecords(file);
      expect(read[0]).toMatchObject({ kind: 'header', line: 1, header: { type: 'session_header' } });
      expect(read.slice(1).map((r) => (r.kind === 'event' ? r.event.type : r.kind))).toEqual(raw.slice(1).map((r) => r.type));
      expect(read.map((r) => r.line)).toEqual(raw.map((_, i) => i + 1));
    }
  });

  it('the loader, the tail, the list and the serve index agree with what the file holds', async () => {
    for (const golden of await goldenFiles()) {
      const home = await cairnHome();
      const raw = await rawRecords(golden);
      const cwd = raw[0]?.cwd ?? '';
      const file = await saved(home, cwd, 'golden', await fs.readFile(golden, 'utf8'));

      const loaded = await loadSession(file);
      expect(loaded.warnings).toEqual([]);
      expect(loaded.events.map((e) => e.type)).toEqual(raw.slice(1).map((r) => r.type));
      // The tail of a file smaller than its window is every event, as the loader read them.
      expect((await readSessionTail(file))?.events).toEqual(loaded.events);

      const [summary] = await listSessions(home, cwd);
      const prompts = raw.filter((r) => r.type === 'user_prompt');
      expect(summary).toMatchObject({
        id: 'golden',
        firstPrompt: prompts[0]?.text,
        messageCount: prompts.length + raw.filter((r) => r.type === 'assistant').length,
      });
      expect(summary?.problem).toBeUndefined();

      const index = await indexSessions(home, []);
      expect(index.map((w) => [w.cwd, w.sessions.map((s) => s.id)])).toEqual([[cwd, ['golden']]]);
    }
  });
});

describe('broken lines', () => {
  const header = JSON.stringify({ type: 'session_header', version: 1, id: 's', cwd: '/w', created: '2026-01-01T00:00:00Z' });
  const prompt = (text: string): string => JSON.stringify({ type: 'user_prompt', text });
  const answer = JSON.stringify({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } });

  it('are reported with file and line, in file order, and what follows them is still read', async () => {
    const home = await cairnHome();
    const file = await saved(home, '/w', 's', [header, prompt('one'), '{"type":"user_pr', answer, '{"type":"warp_drive"}', prompt('two'), '{"type":"assis'].join('\n'));
    expect(await records(file)).toEqual([
      { kind: 'header', line: 1, header: JSON.parse(header) },
      { kind: 'event', line: 2, event: { type: 'user_prompt', text: 'one' } },
      { kind: 'broken', line: 3, warning: `${file}:3: skipped a line that is not valid JSON` },
      { kind: 'event', line: 4, event: JSON.parse(answer) },
      { kind: 'unknown', line: 5, record: { type: 'warp_drive' }, reason: expect.any(String), warning: expect.stringContaining(`${file}:5: kept a record this cairn cannot read`) },
      { kind: 'event', line: 6, event: { type: 'user_prompt', text: 'two' } },
      { kind: 'broken', line: 7, warning: `${file}:7: skipped a line that is not valid JSON (cut off by a crash?)` },
    ]);
    // The list counts what the file holds around them, as the loader reads it.
    const loaded = await loadSession(file);
    expect(loaded.warnings).toHaveLength(3);
    expect(await listSessions(home, '/w')).toMatchObject([{ id: 's', firstPrompt: 'one', messageCount: 3 }]);
    expect((await readSessionTail(file))?.events).toEqual(loaded.events);
  });

  it('a file with no header is refused by the reader naming it, and listed with that problem', async () => {
    const home = await cairnHome();
    const file = await saved(home, '/w', 'nohead', [prompt('one'), answer].join('\n'));
    await expect(records(file)).rejects.toThrow(`${file}:1: not a cairn session file (no header)`);
    expect(await listSessions(home, '/w')).toMatchObject([{ id: 'nohead', problem: `${file}:1: not a cairn session file (no header)` }]);
  });

  it('the serve index places a workspace from any of its files, not only one that happens to be listed first', async () => {
    const home = await cairnHome();
    // Broken files outnumber the good one: whichever the folder lists first, the workspace is found.
    for (const id of ['a', 'b', 'c', 'd', 'e']) await saved(home, '/w', id, `{"type":"user_pr\n`);
    await saved(home, '/w', 'good', `${header}\n${prompt('kept')}\n`);
    const index = await indexSessions(home, []);
    expect(index.map((w) => w.cwd)).toEqual(['/w']);
    expect(index[0]?.sessions.find((s) => s.id === 'good')).toMatchObject({ firstPrompt: 'kept', messageCount: 1 });
  });

  it('a header of a newer format still says where the file belongs, and why it cannot be opened', async () => {
    const home = await cairnHome();
    const file = await saved(home, '/w', 'new', `${JSON.stringify({ type: 'session_header', version: 99, id: 'new', cwd: '/w', created: 'x' })}\n${prompt('x')}\n`);
    const read = await readSessionHeader(file);
    expect(read.header.cwd).toBe('/w');
    expect(read.unreadable).toContain('written by a newer cairn (format 99');
    expect((await indexSessions(home, [])).map((w) => w.cwd)).toEqual(['/w']);
    expect(await readSessionTail(file)).toBeUndefined();
  });
});
