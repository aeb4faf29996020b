// /worktrees (issue 38 item 1) with real git: cairn's worktrees (a session's from cairn -w, an agent's)
// with branch, path, clean/dirty and commits ahead; removing one only when clean, its branch kept.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { worktreesCommand } from '../../../components/commands/worktrees-command.js';
import { createAgentWorktree } from '../../../src/worktrees/agent-worktree.js';
import { createSessionWorktree } from '../../../src/worktrees/session-worktree.js';
import { listCairnWorktrees } from '../../../src/worktrees/worktree-list.js';
import { git } from '../../helpers/test-git.js';

let root: string;
let repo: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-wtlist-')));
  repo = path.join(root, 'repo');
  await fs.mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  await fs.writeFile(path.join(repo, 'a.txt'), 'a\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'init');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Runs /worktrees ARGS as the prompt would, from `cwd`; returns what it printed. */
async function slash(cwd: string, args: string): Promise<{ text: string; level?: string }[]> {
  const printed: { text: string; level?: string }[] = [];
  const ctx = { print: (text: string, level?: string) => void printed.push({ text, ...(level ? { level } : {}) }) };
  await worktreesCommand(cwd).run(args, ctx as never);
  return printed;
}

describe('/worktrees', () => {
  it('lists the session\'s and the agents\' worktrees with branch, path, state and commits ahead; removes only a clean one, keeping its branch', async () => {
    const session = await createSessionWorktree(repo, 'feat');
    const agent = await createAgentWorktree(repo, 'general');
    const other = await createAgentWorktree(repo, 'explore');
    await fs.writeFile(path.join(agent.dir, 'work.txt'), 'unsaved\n');
    await fs.writeFile(path.join(session.dir, 'b.txt'), 'b\n');
    git(session.dir, 'add', 'b.txt');
    git(session.dir, 'commit', '-q', '-m', 'b');

    const list = await listCairnWorktrees(session.dir);
    expect(list.map((w) => [w.name, w.branch, w.state, w.ahead, w.current]).sort()).toEqual(
      [
        ['feat', 'feat', 'clean', 1, true],
        [agent.name, agent.branch, 'dirty', 0, false],
        [other.name, other.branch, 'clean', 0, false],
      ].sort(),
    );

    const [shown] = await slash(session.dir, '');
    expect(shown?.text).toContain('feat (this session)  branch feat  clean, 1 commit ahead');
    expect(shown?.text).toContain(`${agent.name}  branch ${agent.branch}  dirty (1 changed)`);
    expect(shown?.text).toContain(agent.dir);
    expect(shown?.text).toContain('/worktrees remove NAME');

    // Dirty: kept, the work named. The session's own: kept. Clean: removed, the branch stays.
    expect(await slash(repo, `remove ${agent.name}`)).toEqual([{ text: expect.stringMatching(/has uncommitted work, so it was kept .*\n\?\? work\.txt/), level: 'warning' }]);
    expect(await fs.readFile(path.join(agent.dir, 'work.txt'), 'utf8')).toBe('unsaved\n');
    expect(await slash(session.dir, 'remove feat')).toEqual([{ text: expect.stringMatching(/is the worktree this session works in/), level: 'warning' }]);
    expect(await slash(repo, `remove ${other.name}`)).toEqual([{ text: `Removed the worktree ${other.dir}; the branch ${other.branch} is kept.` }]);
    await expect(fs.access(other.dir)).rejects.toThrow();
    expect(git(repo, 'branch', '--list', other.branch).trim()).toBe(other.branch);
    expect(await slash(repo, 'remove nosuch')).toEqual([{ text: expect.stringMatching(/no worktree of cairn's is called "nosuch"; there are /), level: 'warning' }]);
    expect(await slash(repo, 'drop x')).toEqual([{ text: expect.stringMatching(/^Usage: \/worktrees/), level: 'warning' }]);
  });

  it('outside a git repository it says so; a repository without any says how to make one', async () => {
    expect(await slash(repo, '')).toEqual([{ text: expect.stringMatching(/^No worktrees of cairn's in this repository/) }]);
    const plain = path.join(root, 'plain');
    await fs.mkdir(plain);
    expect(await slash(plain, '')).toEqual([{ text: expect.stringMatching(/^\/worktrees: git worktree: fatal: not a git repository/), level: 'warning' }]);
  });

  it('an agent worktree without git, or in a repository with no commit yet, is refused with the reason', async () => {
    const saved = process.env['PATH'];
    process.env['PATH'] = path.join(root, 'no-bin');
    try {
      await expect(createAgentWorktree(repo, 'general')).rejects.toThrow(/^isolation: worktree needs git, which is not on the PATH$/);
    } finally {
      process.env['PATH'] = saved;
    }
    const empty = path.join(root, 'empty');
    await fs.mkdir(empty);
    git(empty, 'init', '-q', '-b', 'main');
    await expect(createAgentWorktree(empty, 'general')).rejects.toThrow(/^isolation: worktree: the repository .*empty has no commit yet, and a worktree starts from HEAD; commit first$/);
  });
});
