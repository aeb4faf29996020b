import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { git } from '../helpers/test-git.js';

// `cairn -p -w NAME`: no one is asked on leaving, so the worktree is kept and stderr says where it
// is, whether it holds uncommitted work, and how to continue or remove it.

describe('cairn -p -w', () => {
  it('works in the new worktree, keeps it and says so with its uncommitted work', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'a\n' });
    git(ws.dir, 'init', '-q', '-b', 'main');
    git(ws.dir, 'add', '.');
    git(ws.dir, 'commit', '-q', '-m', 'init');
    const run = await runCairn(['-p', '-w', 'feat', '--permission-mode', 'acceptEdits', '--no-sandbox', 'write hello to notes.md'], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    const wt = join(ws.dir, '.cairn', 'worktrees', 'feat');
    expect(run.code, run.stderr).toBe(0);
    expect(await readFile(join(wt, 'notes.md'), 'utf8')).toBe('hello\n');
    expect(await access(join(ws.dir, 'notes.md')).then(() => true, () => false)).toBe(false);
    expect(run.stderr).toContain(`cairn: kept the worktree ${wt} (branch feat), with uncommitted work:`);
    expect(run.stderr).toContain('?? notes.md');
    expect(run.stderr).toContain(`git worktree remove ${wt}`);
  }, 90_000);
});
