import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from '../helpers/browser.js';
import { startServeRig } from '../helpers/serve-rig.js';
import { waitFor } from '../helpers/wait-for.js';

// A question from the model (ask_user_question, the offline model's `ask me:`) answered on the page
// in a real Chromium: the same picker as the terminal's, with buttons.

const run = chromiumAvailable() || process.env['CI'] !== undefined;

let browser: Browser;
beforeAll(async () => {
  if (run) browser = await launchBrowser();
}, 30_000);
afterAll(async () => {
  await browser?.close();
});

async function open() {
  const r = await startServeRig();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${r.base}/`);
  await page.click('#new-session');
  await page.waitForSelector('#prompt:not([disabled])');
  return {
    r,
    page,
    async close() {
      expect(errors).toEqual([]);
      await context.close();
      await r.close();
    },
  };
}

async function send(page: Page, text: string): Promise<void> {
  await page.fill('#prompt', text);
  await page.keyboard.press('Enter');
}

const transcript = (page: Page): Promise<string> => page.innerText('#transcript');

describe.skipIf(!run)('a question from the model on the page, in a real browser', () => {
  it('shows the options as buttons; choosing the second and sending gives the model that answer; a forged label is refused', async () => {
    const { r, page, close } = await open();
    await send(page, 'ask me: Which database? Postgres | SQLite | DynamoDB');
    await page.waitForSelector('#approval.question[data-armed]');
    expect(await page.innerText('#approval')).toContain('Question: Which database?');
    const labels = await page.locator('#approval [data-option]').allInnerTexts();
    expect(labels).toEqual(['1 · Postgres', '2 · SQLite', '3 · DynamoDB', '4 · Other']);

    // The server takes only the options asked, whatever a page sends.
    const live = r.hub.live()[0]!;
    const pending = live.runtime.session.pendingRequests()[0]!;
    const forged = await r.api(`/api/sessions/${live.id}/question`, { body: { request_id: pending.request_id, answers: [{ question: 'Which database?', labels: ['rm -rf /'] }] } });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('is not one of the options');

    await page.click('[data-option="0:1"]');
    expect(await page.getAttribute('[data-option="0:1"]', 'aria-pressed')).toBe('true');
    await page.click('.send-answers');
    await waitFor(async () => (await transcript(page)).includes('"Which database?"="SQLite"'), { message: 'the answer in the model\'s summary' });
    expect(await page.locator('#approval').count()).toBe(0);
    await close();
  }, 60_000);

  it('multiple choice with "Other" text; and Escape declines the next question', async () => {
    const { page, close } = await open();
    await send(page, 'ask me (several): Which checks? Lint | Types | Tests');
    await page.waitForSelector('#approval.question[data-armed]');
    expect(await page.innerText('#approval')).toContain('(choose any)');
    expect(await page.isDisabled('.send-answers')).toBe(true);
    await page.click('[data-option="0:0"]');
    await page.click('[data-option="0:2"]');
    await page.click('[data-option="0:3"]');
    await page.fill('input[data-other="0"]', 'a smoke run');
    await page.click('.send-answers');
    await waitFor(async () => (await transcript(page)).includes('"Which checks?"="Lint, Tests, a smoke run"'), { message: 'the ticks and the text in the answer' });

    await send(page, 'ask me: Which database? Postgres | SQLite');
    await page.waitForSelector('#approval.question[data-armed]');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await transcript(page)).includes('the user declined to answer'), { message: 'the decline reaching the model' });
    await close();
  }, 60_000);
});
