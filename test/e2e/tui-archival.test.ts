import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectDir } from '../../src/session/session-paths.js';
import { cairnBin, runCairn } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Archival at start in the built cairn, in a real terminal: a short session (ended below the
// compaction threshold) is distilled at the next start, said in a notice, and never again.

const { start } = cairnTerminals();

const entries = async (ws: string): Promise<number> => {
  const dir = path.join(ws, '.cairn', 'memory');
  const names = await fs.readdir(dir).catch(() => []);
  let n = 0;
  for (const name of names) n += ((await fs.readFile(path.join(dir, name), 'utf8')).match(/^## \d\d:\d\d UTC: /gm) ?? []).length;
  return n;
};

describe.skipIf(!TmuxTerminal.available())('archival at start in a real terminal', () => {
  it('a short session is archived at the next start exactly once: a notice, one episodic entry, a mark in its file', async () => {
    let shortSession = '';
    const { term, ws } = await start({
      columns: 140,
      rows: 40,
      prepare: async (at) => {
        const run = await runCairn(['-p', 'remember that the deploy script is deploy.sh'], { cwd: at.dir, home: at.home });
        expect(run.code, run.stderr).toBe(0);
        // The session's file; its folder (decision log, saved outputs) sits beside it.
        const name = (await fs.readdir(projectDir(at.home, at.dir))).find((n) => n.endsWith('.jsonl'));
        shortSession = path.join(projectDir(at.home, at.dir), name!);
      },
    });
    const id = path.basename(shortSession, '.jsonl').slice(0, 8);
    const screen = await term.waitForText(`Archived earlier session ${id}`);
    expect(screen).toContain('("remember that the deploy script is deploy.sh") in the background.');
    expect(screen).toContain('Episodic note: .cairn/memory/');
    // In the default mode a memory save is asked, so the fact it learned is shown as a proposal, not saved.
    expect(screen).toContain('MEMORY.md: the deploy script is deploy.sh');
    expect(await entries(ws.dir)).toBe(1);
    expect(await fs.readFile(shortSession, 'utf8')).toMatch(/"type":"notice","level":"info","message":"Archived at the start of a later session: Episodic note: \.cairn\/memory\/\d{4}-\d\d-\d\d\.md","code":"archived"/);

    // This session gets a prompt too, so the next start has one session to archive (this one) and
    // one to leave (the first). Archival goes oldest first, so once this one's notice is on screen the
    // first has been judged already.
    term.type('list');
    term.keys('Enter');
    await term.waitForText('Listed');
    term.type('/exit');
    term.keys('Enter');
    await term.waitForScreen((s) => s.trimEnd().endsWith('shell$'), 'the shell prompt after cairn exits');
    const second = (await fs.readdir(projectDir(ws.home, ws.dir))).find((n) => n.endsWith('.jsonl') && !shortSession.endsWith(n));
    expect(second).toBeDefined();
    term.type(`clear; node ${cairnBin}`);
    term.keys('Enter');
    const next = await term.waitForText(`Archived earlier session ${second!.slice(0, 8)}`);
    expect(next).not.toContain(`Archived earlier session ${id}`);
    expect(await entries(ws.dir)).toBe(2);
    expect((await fs.readFile(shortSession, 'utf8')).match(/"code":"archived"/g)).toHaveLength(1);
  });

  it('"archiveSessions": false in config.json leaves ended sessions alone', async () => {
    const { term, ws } = await start({
      homeFiles: { 'config.json': JSON.stringify({ archiveSessions: false }) },
      prepare: async (at) => {
        expect((await runCairn(['-p', 'hello'], { cwd: at.dir, home: at.home })).code).toBe(0);
      },
    });
    term.type('list');
    term.keys('Enter');
    const screen = await term.waitForText('Listed');
    expect(screen).not.toContain('Archived earlier session');
    expect(await entries(ws.dir)).toBe(0);
  });
});
