import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findSessionToResume } from '../../../src/runtime/resume.js';
import { projectDir } from '../../../src/session/session-paths.js';
import { SessionWriter } from '../../../src/session/session-writer.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

async function workspaceWith(ids: string[]): Promise<{ cwd: string; cairnHome: string; dir: string }> {
  const ws = await tempWorkspace({});
  const cwd = await fs.realpath(ws.dir);
  const dir = projectDir(ws.home, cwd);
  await fs.mkdir(dir, { recursive: true });
  let t = Date.now() / 1000 - ids.length;
  for (const id of ids) {
    const w = SessionWriter.create(path.join(dir, `${id}.jsonl`), { id, cwd, created: new Date().toISOString() });
    w.append({ type: 'user_prompt', text: `hello from ${id}` });
    w.close();
    await fs.utimes(path.join(dir, `${id}.jsonl`), t, t++);
  }
  return { cwd, cairnHome: ws.home, dir };
}

describe('findSessionToResume', () => {
  it('--resume takes a full id or a unique prefix, and -c the newest; each is loaded', async () => {
    const ws = await workspaceWith(['aaaa1111-one', 'aaaa2222-two', 'bbbb3333-three']);
    for (const [resumeId, id] of [['aaaa1111-one', 'aaaa1111-one'], ['aaaa1', 'aaaa1111-one'], ['bbbb', 'bbbb3333-three']]) {
      const found = await findSessionToResume({ ...ws, resumeId });
      expect(found.file).toBe(path.join(ws.dir, `${id}.jsonl`));
      expect(found.file !== undefined && found.loaded.events).toEqual([{ type: 'user_prompt', text: `hello from ${id}` }]);
    }
    const latest = await findSessionToResume({ ...ws, continueLatest: true });
    expect(latest.file).toBe(path.join(ws.dir, 'bbbb3333-three.jsonl'));
  });

  it('names the sessions a prefix matches, or says there is none', async () => {
    const ws = await workspaceWith(['aaaa1111-one', 'aaaa2222-two']);
    await expect(findSessionToResume({ ...ws, resumeId: 'aaaa' })).rejects.toThrow(/--resume: "aaaa" matches 2 sessions \(aaaa2222, aaaa1111\); type more of the id/);
    await expect(findSessionToResume({ ...ws, resumeId: 'cccc' })).rejects.toThrow(`--resume: no session cccc in this workspace (${ws.dir})`);
    expect(await findSessionToResume({ ...(await workspaceWith([])), continueLatest: true })).toEqual({ note: 'No earlier session in this workspace to continue; starting a new one.' });
  });

  it('a prefix is matched on the file names: another session file that cannot be read (a FIFO) does not get in the way', { timeout: 5000 }, async () => {
    const ws = await workspaceWith(['aaaa1111-one']);
    const fifo = path.join(ws.dir, 'cccc-pipe.jsonl');
    makeFifo(fifo);
    try {
      const found = await findSessionToResume({ ...ws, resumeId: 'aaaa' });
      expect(found.file).toBe(path.join(ws.dir, 'aaaa1111-one.jsonl'));
    } finally {
      releaseFifo(fifo);
    }
  });
});
