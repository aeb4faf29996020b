import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sendPrompt, servePages } from '../helpers/serve-page.js';
import { waitFor } from '../helpers/wait-for.js';

// Issue 30 item 11, the page's part: each defect as a user meets it in a real Chromium against a
// real `cairn serve` (in-process, offline model).
const { run, openServePage } = servePages();
const load = (viewport?: { width: number; height: number }) => openServePage({ newSession: false, ...(viewport ? { viewport } : {}) });
const open = () => openServePage();

const notices = (page: Page): Promise<string[]> => page.locator('.item.notice').allInnerTexts();

describe.skipIf(!run)('the cairn serve page (issue 30 item 11)', () => {
  it('Esc while a turn runs puts the queued prompts back in the box, as the terminal does', async () => {
    const { r, page, close } = await open();
    await sendPrompt(page, 'stream 300 at 150/s');
    await page.waitForSelector('.item.assistant.streaming');
    await sendPrompt(page, 'first queued');
    await sendPrompt(page, 'second queued');
    await page.waitForSelector('.queued-item >> nth=1');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await page.inputValue('#prompt')) === 'first queued\nsecond queued', { message: 'the queued prompts back in the box' });
    // The queue list follows the server's queue event, which may arrive after the abort's answer.
    await waitFor(async () => (await page.locator('.queued-item').count()) === 0, { message: 'the queue list emptied' });
    const id = r.hub.live()[0]?.id ?? '';
    await waitFor(() => !r.hub.state(id).busy, { message: 'the turn ends' });
    expect(r.hub.state(id).queued).toEqual([]); // nothing runs by itself
    await close();
  }, 60_000);

  it('Enter on a partial /mo takes the highlighted /mode, which then runs with its argument', async () => {
    const { r, page, close } = await open();
    await page.fill('#prompt', '/mo');
    await page.waitForSelector('#completion .option.selected');
    expect(await page.innerText('#completion .option.selected')).toContain('/mode');
    await page.keyboard.press('Enter');
    expect(await page.inputValue('#prompt')).toBe('/mode '); // /mode needs an argument: it waits for it
    await page.keyboard.type('plan');
    await page.keyboard.press('Enter');
    const id = r.hub.live()[0]?.id ?? '';
    await waitFor(() => r.hub.state(id).mode === 'plan', { message: 'the mode switched to plan' });
    await page.waitForSelector('#mode:text-is("plan")');
    expect(await page.locator('.toast.error').count()).toBe(0);
    await close();
  }, 60_000);

  it('at phone width the sidebar closes once a session is chosen, and can be closed and opened again', async () => {
    const { page, close } = await load({ width: 390, height: 844 });
    await page.click('.menu');
    await page.waitForSelector('#sidebar', { state: 'visible' });
    await page.click('#new-session');
    await page.waitForSelector('#prompt:not([disabled])');
    await page.waitForSelector('#sidebar', { state: 'hidden' });
    expect(await page.isVisible('#prompt')).toBe(true);
    await page.click('.menu');
    await page.waitForSelector('#sidebar', { state: 'visible' });
    if (process.env['CAIRN_PAGE_SCREENSHOT']) await page.screenshot({ path: process.env['CAIRN_PAGE_SCREENSHOT'] });
    await page.click('#close-sidebar');
    await page.waitForSelector('#sidebar', { state: 'hidden' });
    // The session in the list: choosing it closes the list too.
    await page.click('.menu');
    await page.click('#sidebar [data-session]');
    await page.waitForSelector('#sidebar', { state: 'hidden' });
    await close();
  }, 60_000);

  it('the top bar with no session open says so, with no "null" in it', async () => {
    const { page, close } = await load();
    await page.waitForSelector('#new-session');
    const bar = await page.innerText('#topbar');
    expect(bar).toContain('No session open');
    expect(bar).not.toContain('null');
    await close();
  }, 60_000);

  it('/mode shows its notice once', async () => {
    const { page, close } = await open();
    await sendPrompt(page, '/mode acceptEdits');
    await sendPrompt(page, '/help'); // its notice comes after /mode's: once it is there, /mode's are all there
    await waitFor(async () => (await notices(page)).some((n) => n.includes('/compact')), { message: "/help's notice" });
    expect((await notices(page)).filter((n) => n.includes('acceptEdits') && !n.includes('/mode'))).toEqual(['Mode: acceptEdits']);
    await close();
  }, 60_000);

  it('text streamed after a notice joins the same answer block instead of splitting a word', async () => {
    const { r, page, close } = await open();
    const session = r.hub.get(r.hub.live()[0]?.id ?? '').runtime.session;
    session.emit({ type: 'text_delta', text: 'The answer is extraord' });
    session.emit({ type: 'notice', level: 'warning', message: 'a hook said something' });
    session.emit({ type: 'text_delta', text: 'inarily long.' });
    session.emit({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'The answer is extraordinarily long.' }] } });
    await page.waitForSelector('.item.assistant:not(.streaming)');
    expect(await page.locator('.item.assistant').allInnerTexts()).toEqual(['The answer is extraordinarily long.']);
    expect(await notices(page)).toContain('a hook said something');
    await close();
  }, 60_000);
});
