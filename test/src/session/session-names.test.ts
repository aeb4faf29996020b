import { mkdtemp, readFile, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchSession, type SessionSummary } from '../../../src/session/session-list.js';
import { locateSessionToResume } from '../../../src/session/session-locate.js';
import { nameSession, readSessionNames, sessionNamesFile } from '../../../src/session/session-names.js';
import { sessionFile } from '../../../src/session/session-paths.js';

const ID_A = 'aaaa1111-0000-4000-8000-000000000001';
const ID_B = 'bbbb2222-0000-4000-8000-000000000002';

async function home(): Promise<{ cairnHome: string; cwd: string }> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-names-'));
  return { cairnHome: join(root, 'home'), cwd: join(root, 'ws') };
}

describe('session names (/save NAME, a later /rename)', () => {
  it('names a session, renames it (one name a session), and refuses a name another session has', async () => {
    const { cairnHome, cwd } = await home();
    expect(await nameSession(cairnHome, cwd, ID_A, 'first')).toEqual({ name: 'first' });
    expect(await nameSession(cairnHome, cwd, ID_A, 'alpha')).toEqual({ name: 'alpha', previous: 'first' });
    expect(await nameSession(cairnHome, cwd, ID_B, 'alpha')).toEqual({ problem: 'the name "alpha" is taken by session aaaa1111; choose another' });
    expect([...(await readSessionNames(cairnHome, cwd))]).toEqual([['alpha', ID_A]]);
  });

  it('refuses empty, spaced and over-long names with the reason', async () => {
    const { cairnHome, cwd } = await home();
    expect(await nameSession(cairnHome, cwd, ID_A, '  ')).toEqual({ problem: 'a session name cannot be empty' });
    expect(await nameSession(cairnHome, cwd, ID_A, 'two words')).toMatchObject({ problem: expect.stringContaining('no spaces') });
    expect(await nameSession(cairnHome, cwd, ID_A, '-x')).toMatchObject({ problem: expect.stringContaining('starting with a letter or digit') });
    expect(await nameSession(cairnHome, cwd, ID_A, 'n'.repeat(65))).toMatchObject({ problem: expect.stringContaining('at most 64') });
  });

  it('a broken names file is named in the problem and is not overwritten', async () => {
    const { cairnHome, cwd } = await home();
    const file = sessionNamesFile(cairnHome, cwd);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, '{ not json');
    expect(await nameSession(cairnHome, cwd, ID_A, 'alpha')).toMatchObject({ problem: expect.stringContaining(`${file}: not valid JSON`) });
    expect(await readFile(file, 'utf8')).toBe('{ not json');
  });

  it('matchSession and --resume find a session by its name: an exact id first, then the name, then an id prefix', async () => {
    const { cairnHome, cwd } = await home();
    for (const id of [ID_A, ID_B]) {
      await mkdir(join(sessionFile(cairnHome, cwd, id), '..'), { recursive: true });
      await writeFile(sessionFile(cairnHome, cwd, id), '');
    }
    // A name that is also a prefix of the other session's id: the name wins.
    await nameSession(cairnHome, cwd, ID_A, 'bbbb');
    const list: SessionSummary[] = [ID_A, ID_B].map((id) => ({ id, file: sessionFile(cairnHome, cwd, id), modified: new Date(0), firstPrompt: '', messageCount: 0, ...(id === ID_A ? { name: 'bbbb' } : {}) }));
    expect(matchSession(list, 'bbbb')).toMatchObject({ session: { id: ID_A } });
    expect(matchSession(list, 'bbbb2')).toMatchObject({ session: { id: ID_B } });
    expect(await locateSessionToResume({ cairnHome, cwd, resumeId: 'bbbb' })).toBe(sessionFile(cairnHome, cwd, ID_A));
    expect(await locateSessionToResume({ cairnHome, cwd, resumeId: 'bbbb2' })).toBe(sessionFile(cairnHome, cwd, ID_B));
    expect(await locateSessionToResume({ cairnHome, cwd, resumeId: 'nope' })).toBeUndefined();
  });
});
