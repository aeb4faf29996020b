import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cairn.js';
import { startServeRig } from '../helpers/serve-rig.js';
import { sendPrompt, servePages } from '../helpers/serve-page.js';
import { waitFor } from '../helpers/wait-for.js';

const { run, openServePage, browser } = servePages();

const open = (files: Record<string, string> = {}, viewport?: { width: number; height: number }, rigOptions: { approvalTimeoutMs?: number } = {}) =>
  openServePage({ files, ...(viewport ? { viewport } : {}), ...rigOptions });

describe.skipIf(!run)('cairn serve in a real browser', () => {
  it('runs a prompt on the offline model and shows parallel cards', async () => {
    const { page, close } = await open({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    await sendPrompt(page, 'read a.txt and b.txt');
    await page.waitForSelector('.parallel .item.tool.success >> nth=1');
    expect(await page.locator('.parallel .item.tool').count()).toBe(2);
    // The answer streams on after the cards finish: wait for its last words.
    await waitFor(async () => (await page.innerText('#transcript')).includes('Read b.txt: 1 line.'), { message: 'the whole answer' });
    expect(await page.innerText('#transcript')).toContain('Read a.txt: 1 line.');
    await close();
  }, 60_000);

  it('approves a write from the keyboard, and the file is there', async () => {
    const { r, page, close } = await open();
    await sendPrompt(page, 'write hello to out.txt');
    await page.waitForSelector('#approval[data-armed]');
    expect(await page.innerText('#approval')).toContain('Allow write_file?');
    await page.keyboard.press('y');
    await page.waitForSelector('.item.tool.success');
    expect(await fs.readFile(path.join(r.dir, 'out.txt'), 'utf8')).toBe('hello\n');
    await close();
  }, 60_000);

  it('an edit outside the workspace offers the file first and its folder second, as the terminal does; f saves the folder rule', async () => {
    const { r, page, close } = await open();
    const outside = path.join(path.dirname(r.dir), 'tmp');
    await fs.mkdir(outside);
    await sendPrompt(page, `write hello to ${outside}/notes.txt`);
    await page.waitForSelector('#approval[data-armed]');
    const buttons = await page.locator('#approval [data-answer]').all();
    const answers = await Promise.all(buttons.map(async (b) => [await b.getAttribute('data-answer'), await b.innerText()]));
    expect(answers).toEqual([
      ['yes', 'y · Yes'],
      ['session', `a · Yes, don't ask again this session (write_file(/${outside}/notes.txt))`],
      ['project', `p · Yes, always in this project (write_file(/${outside}/notes.txt))`],
      ['folder', `f · Yes, always in this project, for the whole folder (write_file(/${outside}/**))`],
      ['no', 'n · No…'],
    ]);
    await page.focus('#approval');
    await page.keyboard.press('f');
    await page.waitForSelector('.item.tool.success');
    expect(await fs.readFile(path.join(outside, 'notes.txt'), 'utf8')).toBe('hello\n');
    const settings = JSON.parse(await fs.readFile(path.join(r.dir, '.cairn', 'settings.local.json'), 'utf8')) as { permissions: { allow: string[] } };
    expect(settings.permissions.allow).toEqual([`write_file(/${outside}/**)`]);
    await close();
  }, 60_000);

  it('an approval shows how long it waits; unanswered, it is answered no with a message and nothing is written', async () => {
    const { r, page, close } = await open({}, undefined, { approvalTimeoutMs: 4000 });
    await sendPrompt(page, 'write hello to out.txt');
    await page.waitForSelector('#approval .expiry');
    expect(await page.innerText('#approval .expiry')).toMatch(/^Waits 0:0[1-4] for an answer, then cairn answers no\.$/);
    await waitFor(async () => (await page.innerText('#transcript')).includes('No answer to write_file within 4 s: answered no.'), { message: 'the timeout notice', timeout: 15_000 });
    await waitFor(async () => (await page.locator('#approval').count()) === 0, { message: 'the approval gone' });
    await expect(fs.access(path.join(r.dir, 'out.txt'))).rejects.toThrow();
    await close();
  }, 60_000);

  it('keys typed as an approval appears go to the draft, not the approval', async () => {
    const { page, close } = await open();
    await sendPrompt(page, 'write hello to out.txt');
    await page.waitForSelector('#approval');
    await page.keyboard.type('yank', { delay: 20 }); // typed on, as the box is drawn
    await page.waitForSelector('#approval[data-armed]');
    expect(await page.inputValue('#prompt')).toBe('yank');
    expect(await page.locator('#approval').count()).toBe(1);
    await close();
  }, 60_000);

  it('a key typed into a draft stays in the draft; a denial with a reason reaches the model', async () => {
    const { r, page, close } = await open();
    await sendPrompt(page, 'write hello to out.txt');
    await page.waitForSelector('#approval[data-armed]');
    await page.focus('#prompt');
    await page.keyboard.type('yes I mean it');
    expect(await page.inputValue('#prompt')).toBe('yes I mean it');
    expect(await page.locator('#approval').count()).toBe(1); // still waiting: the y went to the draft
    await page.focus('#approval');
    await page.keyboard.press('n');
    await page.waitForSelector('#deny-reason');
    await page.fill('#deny-reason', 'put it in notes.md instead');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.item.tool.denied');
    expect(await page.inputValue('#prompt')).toBe('yes I mean it'); // the draft survived the approval
    await waitFor(() => page.innerText('#transcript').then((t) => t.includes('put it in notes.md instead')), { message: 'the reason in the result' });
    await expect(fs.access(path.join(r.dir, 'out.txt'))).rejects.toThrow();
    await close();
  }, 60_000);

  it('markup in the model\'s text is shown, never run: no element, no script, no javascript: link', async () => {
    const { r, page, close } = await open();
    const id = r.hub.live()[0]?.id ?? '';
    const session = r.hub.get(id).runtime.session;
    const hostile = 'Look: <img src=x onerror="document.title=\'pwned\'"> <script>document.title=\'pwned\'</script> [click](javascript:document.title=\'pwned\') ![i](x" onerror="document.title=\'pwned\')';
    session.emit({ type: 'text_delta', text: hostile });
    session.emit({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: hostile }] } });
    await page.waitForSelector('.item.assistant:not(.streaming)');
    const answer = page.locator('.item.assistant');
    expect(await answer.locator('img, script, [onerror]').count()).toBe(0);
    expect(await answer.locator('a[href^="javascript"]').count()).toBe(0);
    expect(await answer.innerText()).toContain('<img src=x');
    expect(await page.title()).toBe('cairn');
    await close();
  }, 60_000);

  it('a code block shows the code as written, highlighted, with no markup leaking into the text', async () => {
    const { r, page, close } = await open();
    const session = r.hub.get(r.hub.live()[0]?.id ?? '').runtime.session;
    const code = "const a = \"x\" + 1; // one\nprint('<b>#2</b>')  # two";
    const text = `Here:\n\n\`\`\`js\n${code}\n\`\`\`\n`;
    session.emit({ type: 'text_delta', text });
    session.emit({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } });
    await page.waitForSelector('.item.assistant:not(.streaming) pre.code');
    const block = page.locator('.item.assistant pre.code');
    expect(await block.innerText()).toBe(code);
    expect(await block.locator('b').count()).toBe(0);
    expect(await block.locator('.tok-str').allInnerTexts()).toEqual(['"x"', "'<b>#2</b>'"]);
    expect(await block.locator('.tok-kw').allInnerTexts()).toEqual(['const']);
    expect(await block.locator('.tok-com').allInnerTexts()).toEqual(['// one', '# two']);
    await close();
  }, 60_000);

  it('with a token (as cairn serve always has): the page at the printed address loads and works, the token leaves the address bar', async () => {
    const r = await startServeRig({ token: 'page-token-123' });
    const context = await browser().newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${r.base}/?token=page-token-123`);
    await page.click('#new-session');
    await page.waitForSelector('#prompt:not([disabled])');
    expect(page.url()).not.toContain('page-token-123');
    await page.reload();
    await page.waitForSelector('#new-session');
    expect((await fetch(`${r.base}/api/sessions`)).status).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
    await r.close();
  }, 60_000);

  it('a reload in the middle of a streamed answer loses nothing', async () => {
    const { r, page, close } = await open();
    await sendPrompt(page, 'stream 300 at 150/s');
    await page.waitForSelector('.item.assistant.streaming');
    await page.reload();
    await page.waitForSelector('.item.assistant');
    const id = r.hub.live()[0]?.id ?? '';
    await waitFor(() => !r.hub.state(id).busy, { message: 'the stream ends', timeout: 20_000 });
    await page.waitForSelector('.item.assistant:not(.streaming)');
    const shown = (await page.innerText('.item.assistant')).replace(/\s+/g, ' ').trim();
    const last = r.hub.get(id).runtime.session.messages.at(-1);
    const sent = (Array.isArray(last?.content) ? last.content.map((b) => ('text' in b ? b.text : '')).join('') : String(last?.content ?? '')).trim();
    const words = sent.split(/\s+/).filter((w) => /^[a-z]+$/i.test(w));
    expect(words.length).toBeGreaterThan(200);
    for (const w of [words[0], words[100], words.at(-1)]) expect(shown).toContain(w);
    await close();
  }, 60_000);

  it('switches the theme and keeps it after a reload; writes the screenshots for docs/', async () => {
    const { page, close } = await open({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    await sendPrompt(page, 'read a.txt and b.txt');
    await page.waitForSelector('.parallel .item.tool.success >> nth=1');
    await sendPrompt(page, 'write hello to notes.md');
    await page.waitForSelector('#approval');
    if (process.env['CAIRN_WRITE_SCREENSHOTS'] === '1') {
      await page.screenshot({ path: path.join(repoRoot, 'docs', 'serve-1280x800.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(repoRoot, 'docs', 'serve-390x844.png') });
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    await page.click('#theme');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await page.reload();
    await page.waitForSelector('#transcript .item');
    expect(await page.getAttribute('html', 'data-theme')).toBe('light');
    await close();
  }, 60_000);
});
