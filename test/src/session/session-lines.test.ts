import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listSessions } from '../../../src/session/session-list.js';
import { loadSession } from '../../../src/session/session-loader.js';
import { projectDir } from '../../../src/session/session-paths.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';

const header = JSON.stringify({ type: 'session_header', version: 1, id: 's1', cwd: '/w', created: '2026-01-01T00:00:00Z' });
const prompt = (text: string) => JSON.stringify({ type: 'user_prompt', text });

const dirs: string[] = [];
const fifos: string[] = [];
afterEach(async () => {
  for (const f of fifos.splice(0)) releaseFifo(f);
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-lines-')));
  dirs.push(dir);
  return dir;
}

describe('loadSession on files that cannot be one string', () => {
  it('a 600 MB line is skipped with a warning naming the file and line; the rest of the session loads', { timeout: 60_000 }, async () => {
    const file = path.join(await tempDir(), 'big.jsonl');
    await fs.writeFile(file, `${header}\n${prompt('before')}\n`);
    // A sparse file: 600 MB of NUL bytes on line 3 cost no disk, then one more record.
    const handle = await fs.open(file, 'r+');
    const tail = Buffer.from(`\n${prompt('after')}\n`);
    const { size } = await handle.stat();
    await handle.write(tail, 0, tail.length, size + 600 * 1024 * 1024);
    await handle.close();

    const loaded = await loadSession(file);
    expect(loaded.events).toEqual([{ type: 'user_prompt', text: 'before' }, { type: 'user_prompt', text: 'after' }]);
    expect(loaded.warnings).toEqual([expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3: skipped a line of 629145600 bytes`))]);
  });

  it('a torn last line is still called out as cut off by a crash', async () => {
    const file = path.join(await tempDir(), 's.jsonl');
    await fs.writeFile(file, `${header}\n${prompt('a')}\n{"type":"user_pr`);
    const loaded = await loadSession(file);
    expect(loaded.warnings).toEqual([`${file}:3: skipped a line that is not valid JSON (cut off by a crash?)`]);
  });

  it('a FIFO named like a session is refused at once, naming it; the list still shows it', { timeout: 5000 }, async () => {
    const home = await tempDir();
    const dir = projectDir(home, '/w');
    await fs.mkdir(dir, { recursive: true });
    const fifo = path.join(dir, 'pipe.jsonl');
    makeFifo(fifo);
    fifos.push(fifo);
    await expect(loadSession(fifo)).rejects.toThrow(`${fifo}: is a FIFO (named pipe), not a session file`);
    expect((await listSessions(home, '/w')).map((s) => s.id)).toEqual(['pipe']);
    expect((await listSessions(home, '/w'))[0]?.problem).toBe(`${fifo}: is a FIFO (named pipe), not a session file; not read`);
  });
});
