import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type HostileKind, hostileRepo, pwnedBy } from '../helpers/hostile-repos.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 29 item 6 in a real terminal: a repository whose .git/config names programs (fsmonitor,
// hooks, filters) and whose .claude/settings.json asks for trust. The user says no; cairn still reads
// the branch and status for its system prompt and lists files for @-mentions, and none of the
// repository's programs runs: not at start, not at the first prompt, not at an @ lookup.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

describe.skipIf(!TmuxTerminal.available())('the TUI in a repository whose git config names programs', () => {
  it.each<HostileKind>(['fsmonitor', 'hooks', 'filter'])('%s: after a no to the trust question, a prompt and an @ lookup run none of them', async (kind) => {
    const repo = await hostileRepo(kind);
    await mkdir(join(repo.dir, '.claude'), { recursive: true });
    await writeFile(join(repo.dir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(touch x)'] } }));
    const { home } = await tempWorkspace();
    const term = TmuxTerminal.start({ cwd: repo.dir, env: { CAIRN_HOME: home, CLAUDE_CONFIG_DIR: join(home, 'claude') } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    // The answer line appears once keys count (the type-ahead guard).
    await term.waitForScreen((s) => s.trimEnd().endsWith('Trust this folder? [y/N]'), 'the trust question');
    term.type('n');
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type('read a.txt');
    term.keys('Enter');
    await term.waitForText('lines 1-1 of 1');
    term.type('see @');
    await term.waitForText('@ file');
    term.type('b.t');
    await term.waitForScreen((s) => /› b\.txt/.test(s), 'the file index offering b.txt');
    expect(await pwnedBy(repo)).toBeUndefined();
    // The traps are armed: the same repository's programs run under a plain git status.
    execFileSync('git', ['status', '--short'], { cwd: repo.dir, stdio: 'ignore' });
    expect(await pwnedBy(repo)).toBeDefined();
  });
});
