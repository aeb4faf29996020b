// The page's worktrees routes (issue 38 item 1, "works from the page too") over HTTP, with real git:
// a clean and a dirty worktree made by cairn's own createSessionWorktree. Listing gives their state;
// removing takes only the exact name of one of cairn's clean worktrees (no path, no traversal), and
// the POST passes the same access checks as every other.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { command, script } from '../../helpers/hook-rig.js';
import { trackedServeRigs } from '../../helpers/serve-rig.js';
import { git, gitWorktreeDirs, repoWithCleanAndDirtyWorktrees } from '../../helpers/test-git.js';

const rig = trackedServeRigs();

describe('cairn serve: the worktrees routes', () => {
  it('lists cairn\'s worktrees with their state; removes the clean one by name (its branch stays), refuses the dirty one saying why', async () => {
    const r = await rig();
    const { clean, dirty } = await repoWithCleanAndDirtyWorktrees(r.dir);
    const id = await r.newSession();

    const listed = await r.api(`/api/sessions/${id}/worktrees`);
    expect(listed.status).toBe(200);
    const rows = (listed.body['worktrees'] as { name: string; branch: string; state: string; removable: boolean; kept?: string; work?: string; path: string }[]).map((w) => [w.name, w.branch, w.state, w.removable, w.path]);
    expect(rows.sort()).toEqual([
      ['clean-one', 'clean-one', 'clean', true, clean],
      ['dirty-one', 'dirty-one', 'dirty', false, dirty],
    ]);
    const dirtyRow = (listed.body['worktrees'] as { name: string; kept?: string; work?: string }[]).find((w) => w.name === 'dirty-one');
    expect(dirtyRow?.kept).toBe('dirty-one has uncommitted work, so it is kept (commit or discard it first)');
    expect(dirtyRow?.work).toBe('?? notes.txt');

    const refused = await r.api(`/api/sessions/${id}/worktrees/remove`, { body: { name: 'dirty-one' } });
    expect(refused.status).toBe(409);
    expect(refused.body['error']).toBe('worktrees: dirty-one has uncommitted work, so it is kept (commit or discard it first):\n?? notes.txt');
    expect(gitWorktreeDirs(r.dir)).toContain(dirty);
    expect(await fs.readFile(path.join(dirty, 'notes.txt'), 'utf8')).toBe('unsaved\n');

    const removed = await r.api(`/api/sessions/${id}/worktrees/remove`, { body: { name: 'clean-one' } });
    expect(removed.status).toBe(200);
    expect(removed.body['message']).toBe(`Removed the worktree ${clean}; the branch clean-one is kept.`);
    expect((removed.body['worktrees'] as { name: string }[]).map((w) => w.name)).toEqual(['dirty-one']);
    expect(gitWorktreeDirs(r.dir)).toEqual([r.dir, dirty]);
    await expect(fs.stat(clean)).rejects.toThrow(/ENOENT/);
    expect(git(r.dir, 'branch', '--list', 'clean-one').trim()).toBe('clean-one');
  });

  it('refuses a name that is a path or climbs out (nothing is removed), a name that is none of cairn\'s, and a worktree another open session works in', async () => {
    const r = await rig();
    const { clean, dirty } = await repoWithCleanAndDirtyWorktrees(r.dir);
    const id = await r.newSession();
    for (const name of ['../..', '..', '../../ws', clean, '/etc', 'clean-one/../dirty-one', '.cairn', '-rf', 'a b']) {
      const res = await r.api(`/api/sessions/${id}/worktrees/remove`, { body: { name } });
      expect(res.status, name).toBe(400);
      expect(res.body['error'], name).toBe(`worktrees: "${name}" is not a worktree name (letters, digits, . _ -, not starting with . or -; never a path)`);
    }
    const unknown = await r.api(`/api/sessions/${id}/worktrees/remove`, { body: { name: 'main' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body['error']).toBe('worktrees: no worktree of cairn\'s is called "main"; there are clean-one, dirty-one');

    // Another session on this server works in the clean one: it is not removed under it.
    const other = await r.api('/api/sessions', { body: { cwd: clean } });
    expect(other.status).toBe(201);
    const inUse = await r.api(`/api/sessions/${id}/worktrees/remove`, { body: { name: 'clean-one' } });
    expect(inUse.status).toBe(409);
    expect(inUse.body['error']).toBe(`worktrees: clean-one is the workspace of session ${other.body['id'] as string}, open on this server: close it first`);
    // And that session cannot remove its own.
    const own = await r.api(`/api/sessions/${other.body['id'] as string}/worktrees/remove`, { body: { name: 'clean-one' } });
    expect(own.status).toBe(409);
    expect(own.body['error']).toContain('clean-one is the worktree this session works in');
    expect(gitWorktreeDirs(r.dir)).toEqual([r.dir, clean, dirty]);
  });

  it('the remove route passes the access checks every POST does: token, Origin, JSON', async () => {
    const r = await rig({ token: 'sekrit' });
    const { clean } = await repoWithCleanAndDirtyWorktrees(r.dir);
    const id = await r.newSession();
    const url = `${r.base}/api/sessions/${id}/worktrees/remove`;
    const body = JSON.stringify({ name: 'clean-one' });
    const noToken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(noToken.status).toBe(401);
    const foreign = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sekrit', origin: 'http://evil.example' }, body });
    expect(foreign.status).toBe(403);
    const form = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', authorization: 'Bearer sekrit' }, body });
    expect(form.status).toBe(415);
    const listNoToken = await fetch(`${r.base}/api/sessions/${id}/worktrees`);
    expect(listNoToken.status).toBe(401);
    expect(gitWorktreeDirs(r.dir)).toContain(clean);
  });

  it('/worktrees typed in the page\'s prompt lists them as the terminal does, and removes a clean one; outside a repository it says so', async () => {
    const r = await rig();
    const { dirty } = await repoWithCleanAndDirtyWorktrees(r.dir);
    const id = await r.newSession();
    const listing = await r.api(`/api/sessions/${id}/prompt`, { body: { text: '/worktrees' } });
    expect(listing.status).toBe(200);
    expect(listing.body['output']).toContain('clean-one  branch clean-one  clean');
    expect(listing.body['output']).toContain('dirty-one  branch dirty-one  dirty (1 changed)');
    expect(listing.body['output']).toContain(dirty);
    const traversal = await r.api(`/api/sessions/${id}/prompt`, { body: { text: '/worktrees remove ../..' } });
    expect(traversal.status).toBe(400);
    const kept = await r.api(`/api/sessions/${id}/prompt`, { body: { text: '/worktrees remove dirty-one' } });
    expect(kept.status).toBe(409);
    const removed = await r.api(`/api/sessions/${id}/prompt`, { body: { text: '/worktrees remove clean-one' } });
    expect(removed.status).toBe(200);
    expect(removed.body['output']).toMatch(/^Removed the worktree .*clean-one; the branch clean-one is kept\.$/);
    expect(gitWorktreeDirs(r.dir)).toEqual([r.dir, dirty]);

    const plain = await rig();
    const id2 = await plain.newSession();
    const outside = await plain.api(`/api/sessions/${id2}/worktrees`);
    expect(outside.status).toBe(409);
    expect(outside.body['error']).toMatch(new RegExp(`^worktrees: ${plain.dir} is not in a git repository cairn can read`));
  });

  it('a removal from the page tells the WorktreeRemove hooks (the folder still there), and every tab sees what they said', async () => {
    const r = await rig();
    const { clean } = await repoWithCleanAndDirtyWorktrees(r.dir);
    // A user-level hook (~/.claude/settings.json: the rig's HOME is beside CAIRN_HOME), which records what it was told.
    const logs = path.dirname(r.home);
    const hook = await script(logs, 'remove.sh', `cat > "${logs}/stdin.json"\n[ -d "${clean}" ] && echo present > "${logs}/saw"\necho "told" >&2\nexit 2`);
    await fs.mkdir(path.join(logs, '.claude'), { recursive: true });
    await fs.writeFile(path.join(logs, '.claude', 'settings.json'), JSON.stringify({ hooks: { WorktreeRemove: [{ hooks: [command(hook)] }] } }));
    const id = await r.newSession();
    const tab = r.stream(`/api/sessions/${id}/events`);
    expect((await r.api(`/api/sessions/${id}/worktrees/remove`, { body: { name: 'clean-one' } })).status).toBe(200);
    expect(JSON.parse(await fs.readFile(path.join(logs, 'stdin.json'), 'utf8'))).toMatchObject({ hook_event_name: 'WorktreeRemove', worktree_path: clean });
    expect((await fs.readFile(path.join(logs, 'saw'), 'utf8')).trim()).toBe('present');
    await tab.waitFor((m) => m.event === 'agent' && m.data['type'] === 'hook' && m.data['hook_event'] === 'WorktreeRemove', 'the hook event in the tab');
    await tab.waitFor((m) => m.event === 'agent' && m.data['type'] === 'notice' && String(m.data['message']).startsWith('Removed the worktree'), 'the removal notice in the tab');
    expect(gitWorktreeDirs(r.dir)).not.toContain(clean);
  });
});
