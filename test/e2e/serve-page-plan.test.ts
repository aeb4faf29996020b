import { describe, expect, it } from 'vitest';
import { sendPrompt, servePages } from '../helpers/serve-page.js';
import { waitFor } from '../helpers/wait-for.js';

// The approved plan pinned on the page (issue 36 item 2), in a real Chromium against `cairn serve` on
// the offline model (`propose plan: ...` calls exit_plan_mode): approved on the page, it is pinned
// above the prompt as Markdown (the model's markup shown as text), folds by a click and by the next
// prompt, comes back when the page reloads and when the session is resumed from its file, /plan prints
// it again, /clear drops it.
const { run, openServePage } = servePages();

const PLAN = '# Greet in French\n\n1. Change `hello` to `bonjour` in greeting.txt\n2. Check <img src=x onerror="document.title=1"> stays text';

describe.skipIf(!run)('the approved plan on the page', () => {
  it('is pinned once approved, folds and unfolds, survives a reload and a resume; /plan prints it, /clear drops it', async () => {
    const { r, page, close } = await openServePage();
    await sendPrompt(page, '/mode plan');
    await page.waitForSelector('#mode >> text=plan');
    await sendPrompt(page, `propose plan: ${PLAN}`);
    await page.waitForSelector('#approval [data-answer="acceptEdits"]');
    expect(await page.locator('#plan-block').count()).toBe(0);
    await page.click('#approval [data-answer="acceptEdits"]');

    const block = page.locator('#plan-block');
    await block.waitFor();
    expect(await block.getAttribute('open')).toBe('');
    expect(await block.locator('summary').innerText()).toBe('Approved plan: Greet in French · edits accepted without asking');
    // Markdown, as the page draws answers: a list with code; the model's tag is text, never an element.
    expect(await block.locator('.plan-body ol li').count()).toBe(2);
    expect(await block.locator('.plan-body code').first().innerText()).toBe('hello');
    expect(await block.locator('.plan-body img').count()).toBe(0);
    expect(await block.locator('.plan-body').innerText()).toContain('<img src=x onerror="document.title=1"> stays text');
    // Pinned: outside the transcript, just above the prompt.
    expect(await page.locator('#transcript #plan-block').count()).toBe(0);
    expect(await page.locator('#plan + #queued + #composer').count()).toBe(1);

    // A click folds it to its title line, and a redraw (the turn's events) leaves it folded.
    await block.locator('summary').click();
    expect(await block.getAttribute('open')).toBeNull();
    expect(await block.locator('.plan-body').isVisible()).toBe(false);
    await waitFor(async () => !(await page.locator('#stop').count()), { message: 'the turn ends', timeout: 30_000 });
    expect(await block.getAttribute('open')).toBeNull();
    await block.locator('summary').click();
    expect(await block.locator('.plan-body').isVisible()).toBe(true);

    // Reloading the page: the plan is back, open (nothing was asked since).
    await page.reload();
    await page.locator('#plan-block[open] .plan-body ol').waitFor();

    // The next prompt folds it, as in the terminal.
    await sendPrompt(page, 'hello');
    await waitFor(async () => (await page.locator('#plan-block').getAttribute('open')) === null, { message: 'folded by the next prompt', timeout: 15_000 });

    // /plan prints it in the transcript.
    await sendPrompt(page, '/plan');
    await waitFor(async () => (await page.innerText('#transcript')).includes('Approved plan (edits accepted without asking):\n# Greet in French'), { message: 'the /plan notice', timeout: 15_000 });

    // Closed, then opened again from its file: the plan is pinned again.
    const id = page.url().split('/').pop() ?? '';
    expect((await r.api(`/api/sessions/${id}/close`, { body: {} })).status).toBe(200);
    await page.goto(`${r.base}/`);
    await page.click(`#sidebar button[data-session="${id}"]`);
    await page.locator('#plan-block summary >> text=Greet in French').waitFor();

    // /clear drops it.
    await page.waitForSelector('#prompt:not([disabled])');
    await sendPrompt(page, '/clear');
    await waitFor(async () => (await page.locator('#plan-block').count()) === 0, { message: 'dropped by /clear', timeout: 15_000 });
    expect(await page.title()).toBe('cairn');
    await close();
  }, 120_000);

  it('/plan with no plan says so; /plan with a task switches to plan mode and sends the task', async () => {
    const { r, page, close } = await openServePage();
    await sendPrompt(page, '/plan');
    await waitFor(async () => (await page.innerText('#transcript')).includes('No plan has been approved in this session.'), { message: 'the notice', timeout: 15_000 });
    expect(await page.locator('#plan-block').count()).toBe(0);
    await sendPrompt(page, '/plan propose plan: # Tidy up');
    await page.waitForSelector('#mode >> text=plan');
    await page.waitForSelector('#transcript .item.user >> text=propose plan: # Tidy up');
    await page.waitForSelector('#approval [data-answer="no"]');
    expect(r.hub.live()[0]?.runtime.session.mode).toBe('plan');
    await close();
  }, 60_000);
});
