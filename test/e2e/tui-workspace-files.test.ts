import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 15: using cairn in a repository leaves `git status` as clean as the work allows.
const { start } = cairnTerminals();

describe.skipIf(!TmuxTerminal.available())('files cairn writes into a repository', () => {
  it('none at launch; an "always in this project" rule is saved git-ignored', async () => {
    const git = (dir: string, ...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
    const { term, ws } = await start({
      files: { 'README.md': 'hello\n' },
      prepare: ({ dir }) => {
        git(dir, 'init', '-q');
        git(dir, 'add', '.');
        git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'init');
      },
    });
    const status = (): string[] => git(ws.dir, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean);
    // The cron scheduler has started (it takes its lock at launch): the lock is in CAIRN_HOME.
    term.type('/cron');
    term.keys('Enter');
    await term.waitForText('this cairn fires scheduled tasks here');
    expect(status()).toEqual([]);
    expect((await fs.readdir(path.join(ws.home, 'locks'))).some((f) => f.startsWith('cron-'))).toBe(true);

    term.type('write hello to notes.txt');
    term.keys('Enter');
    await term.waitForText('Allow write_file?');
    await term.pauseBeforeAnswering();
    term.keys('p');
    await term.waitForText('Wrote');
    await fs.access(path.join(ws.dir, '.cairn', 'settings.local.json'));
    expect(status()).toEqual(['?? .cairn/.gitignore', '?? notes.txt']);
  });
});
