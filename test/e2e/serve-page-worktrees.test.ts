import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sendPrompt, servePages } from '../helpers/serve-page.js';
import { git, gitWorktreeDirs, repoWithCleanAndDirtyWorktrees } from '../helpers/test-git.js';
import { waitFor } from '../helpers/wait-for.js';

// The page's worktrees panel (issue 38 item 1: "/worktrees lists them with their state. Works from the
// page too."), in a real Chromium against `cairn serve`, with real git: one clean and one dirty worktree
// made by cairn's own createSessionWorktree.
const { run, openServePage } = servePages();

describe.skipIf(!run)('the worktrees panel on the page', () => {
  it('lists both with their state; Remove (confirmed) removes the clean one, the dirty one offers none and says why; /worktrees in the prompt lists them too', async () => {
    const { r, page, close } = await openServePage();
    const { clean, dirty } = await repoWithCleanAndDirtyWorktrees(r.dir);

    await page.click('#worktrees');
    await page.waitForSelector('#worktrees-panel li[data-worktree="dirty-one"]');
    const cleanRow = page.locator('li[data-worktree="clean-one"]');
    const dirtyRow = page.locator('li[data-worktree="dirty-one"]');
    expect(await cleanRow.locator('.wt-state').innerText()).toBe('clean');
    expect(await cleanRow.locator('.wt-branch').innerText()).toBe('branch clean-one');
    expect(await cleanRow.locator('.wt-path').innerText()).toBe(clean);
    expect(await dirtyRow.locator('.wt-state').innerText()).toBe('dirty (1 change)');
    expect(await dirtyRow.locator('button').count()).toBe(0);
    expect(await dirtyRow.locator('.wt-kept').innerText()).toBe('Cannot be removed: dirty-one has uncommitted work, so it is kept (commit or discard it first).');
    expect(await dirtyRow.locator('.wt-work').innerText()).toBe('?? notes.txt');

    // Remove asks once more (ignored files go with the folder); Cancel keeps it.
    await cleanRow.locator('button[data-remove]').click();
    await cleanRow.locator('.wt-confirm >> text=Cancel').click();
    expect(await cleanRow.locator('.wt-confirm').count()).toBe(0);
    expect(gitWorktreeDirs(r.dir)).toContain(clean);
    await cleanRow.locator('button[data-remove]').click();
    expect(await cleanRow.locator('.wt-confirm').innerText()).toContain('the branch clean-one stays with its commits');
    await cleanRow.locator('.wt-confirm-yes').click();
    await page.waitForSelector(`.toast >> text=Removed the worktree ${clean}; the branch clean-one is kept.`);
    await waitFor(async () => (await page.locator('#worktrees-panel li[data-worktree]').count()) === 1, { message: 'the panel lists only the dirty one', timeout: 15_000 });
    expect(gitWorktreeDirs(r.dir)).toEqual([r.dir, dirty]);
    expect(git(r.dir, 'branch', '--list', 'clean-one').trim()).toBe('clean-one');
    // Every tab hears of it: the removal is a notice in the session.
    await waitFor(async () => (await page.innerText('#transcript')).includes(`Removed the worktree ${clean}`), { message: 'the notice', timeout: 15_000 });

    // Esc closes the panel (and stops nothing).
    await page.locator('#worktrees-refresh').focus();
    await page.keyboard.press('Escape');
    expect(await page.locator('#worktrees-panel').count()).toBe(0);

    // Typed in the prompt, as in the terminal.
    await sendPrompt(page, '/worktrees');
    await waitFor(async () => (await page.innerText('#transcript')).includes('dirty-one  branch dirty-one  dirty (1 changed)'), { message: 'the listing', timeout: 15_000 });
    await sendPrompt(page, '/worktrees remove dirty-one');
    await page.waitForSelector('.toast.error >> text=worktrees: dirty-one has uncommitted work, so it is kept');
    expect(gitWorktreeDirs(r.dir)).toEqual([r.dir, dirty]);
    expect(await fs.readFile(path.join(dirty, 'notes.txt'), 'utf8')).toBe('unsaved\n');
    await close();
  }, 120_000);

  it('outside a git repository the panel says so', async () => {
    const { page, close } = await openServePage();
    await page.click('#worktrees');
    await page.waitForSelector('#worktrees-panel .wt-problem');
    expect(await page.innerText('#worktrees-panel .wt-problem')).toMatch(/^worktrees: .* is not in a git repository cairn can read/);
    await close();
  }, 60_000);
});
