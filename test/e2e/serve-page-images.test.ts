import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { imageInfo, screenshotPng } from '../helpers/image-files.js';
import { textPdf } from '../helpers/pdf-files.js';
import { sendPrompt, servePages } from '../helpers/serve-page.js';
import { waitFor } from '../helpers/wait-for.js';

// Images on the cairn serve page, in real Chromium: a pasted or dropped file becomes a chip (the
// server checks it by content and scales it for the provider), the prompt takes it to a loopback
// Anthropic server as an image block, and the transcript shows its thumbnail from the session's store.
const { run, openServePage } = servePages();

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function anthropicPage() {
  server = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'I see a dark window with an error line.' }]));
  return openServePage({ provider: 'anthropic', env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url } });
}

// Runs in the page: the files as a user's paste (a ClipboardEvent on the prompt box) or drop (a
// DragEvent on the composer) delivers them. Source text, so the test's TypeScript needs no DOM types.
const DELIVER = `({ how, files }) => {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(new File([Uint8Array.from(atob(f.data), (c) => c.charCodeAt(0))], f.name, { type: f.type }));
  const target = document.querySelector(how === 'paste' ? '#prompt' : '#composer');
  if (how === 'paste') target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  else {
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }
}`;

async function deliver(page: Page, how: 'paste' | 'drop', files: Array<{ name: string; type: string; bytes: Buffer }>): Promise<void> {
  const arg = { how, files: files.map((f) => ({ name: f.name, type: f.type, data: f.bytes.toString('base64') })) };
  await page.evaluate(`(${DELIVER})(${JSON.stringify(arg)})`);
}

const chips = (page: Page) => page.locator('#chips .chip').allInnerTexts();

describe.skipIf(!run)('images on the cairn serve page', () => {
  it('a pasted screenshot becomes a chip, goes with the prompt as an image block, and shows as a thumbnail', async () => {
    const { page, close } = await anthropicPage();
    await deliver(page, 'paste', [{ name: 'shot.png', type: 'image/png', bytes: await screenshotPng(2400, 1500) }]);
    // Scaled for Anthropic (1568 px on the longest side) before it is shown: the chip says what will be sent.
    await page.waitForSelector('#chips .chip.ready', { timeout: 30_000 });
    expect((await chips(page)).map((c) => c.replace('✕', '').trim())).toEqual(['[image shot.png · 1568x980]']);

    const shots = process.env['CAIRN_SCREENSHOTS'] ?? os.tmpdir();
    await page.screenshot({ path: path.join(shots, 'serve-page-chip.png') });
    await sendPrompt(page, 'what is wrong in this screenshot?');
    const request = await waitFor(() => server?.requests[0] ?? Promise.reject(new Error('no request yet')), { timeout: 30_000, message: 'the provider is called' });
    const prompt = request.body.messages.at(-1)?.content ?? [];
    expect(prompt[0]).toMatchObject({ type: 'text', text: 'what is wrong in this screenshot?' });
    const image = prompt.find((b) => b.type === 'image') as { source: { type: string; media_type: string; data: string } } | undefined;
    expect(image?.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(await imageInfo(image?.source.data ?? '')).toEqual({ width: 1568, height: 980, format: 'png' });
    // The chips went with the prompt.
    expect(await chips(page)).toEqual([]);

    // The transcript's prompt shows the picture, fetched from the session's store by its hash.
    await page.waitForFunction(`document.querySelector('.item.user img.thumb')?.complete && document.querySelector('.item.user img.thumb').naturalWidth === 1568`, undefined, { timeout: 30_000 });
    expect(await page.locator('.item.user figcaption').innerText()).toMatch(/^image shot\.png · 1568x980 · \d+ KB$/);
    await page.waitForSelector('.item.assistant:not(.streaming)', { timeout: 30_000 });
    const shot = path.join(shots, 'serve-page-image.png');
    await page.screenshot({ path: shot });
    expect((await fs.stat(shot)).size).toBeGreaterThan(0);
    await close();
  }, 120_000);

  it('a dropped PDF shows its pages and can be removed before sending; a file that is not an image is refused by its content', async () => {
    const { page, close } = await anthropicPage();
    await deliver(page, 'drop', [{ name: 'spec.pdf', type: 'application/pdf', bytes: textPdf(['Page one', 'Page two']) }]);
    await page.waitForSelector('#chips .chip.ready', { timeout: 30_000 });
    expect((await chips(page)).map((c) => c.replace('✕', '').trim())).toEqual(['[pdf spec.pdf · 2 pages]']);
    await page.click('#chips .chip .remove');
    await waitFor(async () => (await chips(page)).length === 0 || Promise.reject(new Error('chip still there')), { timeout: 10_000, message: 'the chip goes' });

    // Named and typed as a PNG, but text: refused, named, no chip.
    await deliver(page, 'paste', [{ name: 'fake.png', type: 'image/png', bytes: Buffer.from('just text\n') }]);
    await page.waitForSelector('.toast.error', { timeout: 30_000 });
    expect(await page.locator('.toast.error').innerText()).toContain('fake.png is not an image (PNG, JPEG, GIF, WebP) or a PDF');
    expect(await chips(page)).toEqual([]);

    await sendPrompt(page, 'hello');
    const request = await waitFor(() => server?.requests[0] ?? Promise.reject(new Error('no request yet')), { timeout: 30_000, message: 'the provider is called' });
    expect(request.body.messages.at(-1)?.content.map((b) => b.type)).toEqual(['text']);
    await close();
  }, 120_000);
});
