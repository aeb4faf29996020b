import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { readSessionNames } from '../../src/session/session-names.js';
import { sendPrompt, servePages } from '../helpers/serve-page.js';
import { waitFor } from '../helpers/wait-for.js';

// The page's rename and export buttons, in a real Chromium against `cairn serve` on the offline model:
// the same engine as /rename and /export in the terminal.
const { run, openServePage } = servePages();

describe.skipIf(!run)('renaming and exporting a session from the page', () => {
  it('Rename names the session (the sessions list shows it, session-names.json holds it); Export downloads the conversation as Markdown and as JSON lines', async () => {
    const { r, page, close } = await openServePage();
    await sendPrompt(page, 'hello from the page');
    await waitFor(async () => (await page.innerText('#transcript')).includes('You said: hello from the page'), { message: 'the answer' });

    await page.click('#rename');
    await page.fill('#rename-name', 'release-notes');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.toast >> text=Session named "release-notes".');
    await page.waitForSelector('#sidebar button[data-session] >> text=release-notes');
    expect(await page.locator('#rename-name').count()).toBe(0);
    const id = page.url().split('/').pop() ?? '';
    expect((await readSessionNames(r.home, r.dir)).get('release-notes')).toBe(id);

    // A name that is not one is refused with the reason, and the field stays open.
    await page.click('#rename');
    await page.fill('#rename-name', '');
    await page.click('#rename-save');
    await page.waitForSelector('.toast.error >> text=rename: a session name');
    await page.keyboard.press('Escape');
    expect(await page.locator('#rename-name').count()).toBe(0);

    const [markdown] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    expect(markdown.suggestedFilename()).toBe('cairn-release-notes.md');
    const md = await fs.readFile(await markdown.path(), 'utf8');
    expect(md).toContain(`# cairn session "release-notes" (${id})`);
    expect(md).toContain('## Prompt\n\nhello from the page');
    expect(md).toContain('You said: _hello from the page_');

    const [json] = await Promise.all([page.waitForEvent('download'), page.click('#export-json')]);
    expect(json.suggestedFilename()).toBe('cairn-release-notes.jsonl');
    const events = (await fs.readFile(await json.path(), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { type: string; text?: string });
    expect(events.find((e) => e.type === 'user_prompt')?.text).toBe('hello from the page');
    await close();
  }, 90_000);
});
