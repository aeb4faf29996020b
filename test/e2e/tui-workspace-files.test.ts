import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 12 item 15: using cairn in a repository leaves `git status` as clean as the work allows.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

describe.skipIf(!TmuxTerminal.available())('files cairn writes into a repository', () => {
  it('none at launch; an "always in this project" rule is saved git-ignored', async () => {
    const ws = await tempWorkspace({ 'README.md': 'hello\n' });
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: ws.dir, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'init');
    const status = (): string[] => git('status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean);

    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
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
