// WorktreeRemove when a `cairn -w` worktree is removed: by the exit question's "r", and by
// /worktrees remove. A real hook script (Claude Code's format) gets `worktree_path` while the folder
// still exists; the worktree is then removed all the same (the hook cannot block it). Real git.
import fs from 'node:fs/promises';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askAboutWorktree } from '../../../components/app/worktree-exit.js';
import { worktreesCommand } from '../../../components/commands/worktrees-command.js';
import type { AppContext } from '../../../components/actions/app-context.js';
import { createSessionWorktree } from '../../../src/worktrees/session-worktree.js';
import { claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import { git } from '../../helpers/test-git.js';

const exists = (p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);

/** A repository with one commit, and a WorktreeRemove hook that records its stdin and whether the folder was there; exits 2 (it cannot block). */
async function setUp() {
  const dir = await hookWorkspace('cairn-wt-remove-');
  git(dir, 'init', '-q', '-b', 'main');
  await fs.writeFile(path.join(dir, 'a.txt'), 'a\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'init');
  const logs = await hookWorkspace('cairn-wt-remove-logs-');
  const hook = await script(logs, 'remove.sh', `cat > "${logs}/stdin.json"\np=$(sed 's/.*"worktree_path":"\\([^"]*\\)".*/\\1/' "${logs}/stdin.json")\n[ -d "$p" ] && echo present > "${logs}/saw" || echo absent > "${logs}/saw"\necho "not allowed" >&2\nexit 2`);
  const { runner } = claudeHooks(dir, { WorktreeRemove: [{ hooks: [command(hook)] }] });
  return { dir, logs, runner };
}

const told = async (logs: string) => ({ input: JSON.parse(await fs.readFile(path.join(logs, 'stdin.json'), 'utf8')) as Record<string, unknown>, saw: (await fs.readFile(path.join(logs, 'saw'), 'utf8')).trim() });

describe('WorktreeRemove for a session worktree', () => {
  it('the exit question\'s "r" tells the hook with the folder still there, then removes it', async () => {
    const { dir, logs, runner } = await setUp();
    const wt = await createSessionWorktree(dir, 'feature-x');
    const input = new PassThrough();
    const output = new PassThrough();
    let said = '';
    output.on('data', (d: Buffer) => (said += d.toString()));
    const asked = askAboutWorktree(wt, input, output, runner);
    input.end('r\n');
    await asked;
    const { input: stdin, saw } = await told(logs);
    expect(stdin).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: wt.dir });
    expect(saw).toBe('present');
    expect(await exists(wt.dir)).toBe(false);
    expect(said).toContain(`Removed the worktree ${wt.dir}`);
    expect(said).toContain('WorktreeRemove hook message: not allowed');
  });

  it('/worktrees remove NAME tells the hook, then removes it; a name that is not there runs no hook', async () => {
    const { dir, logs, runner } = await setUp();
    const wt = await createSessionWorktree(dir, 'feature-y');
    const printed: string[] = [];
    const ctx = { print: (text: string) => printed.push(text) } as unknown as AppContext;
    const cmd = worktreesCommand(dir, runner);
    await cmd.run('remove nope', ctx);
    expect(await exists(path.join(logs, 'stdin.json'))).toBe(false);
    await cmd.run('remove feature-y', ctx);
    const { input, saw } = await told(logs);
    expect(input).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: wt.dir });
    expect(saw).toBe('present');
    expect(await exists(wt.dir)).toBe(false);
    expect(printed.at(-1)).toContain(`Removed the worktree ${wt.dir}`);
  });
});
