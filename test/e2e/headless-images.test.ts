// `cairn -p` with images and PDFs, the built bundle against loopback Anthropic and OpenAI protocol
// servers: `@shot.png` mentions attach the scaled image, stream-json image and document blocks reach
// the server, and a file that cannot go stops the run with a message naming it, before any request.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { openaiReply, startOpenAIServer } from '../helpers/openai-server.js';
import { gifOf, imageInfo, photoJpeg, screenshotPng } from '../helpers/image-files.js';
import { textPdf } from '../helpers/pdf-files.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

const servers: ScriptedServer<unknown>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function workspace(): Promise<{ dir: string; home: string }> {
  const ws = await tempWorkspace();
  await fs.writeFile(path.join(ws.dir, 'shot.png'), await screenshotPng(4000, 3000));
  await fs.writeFile(path.join(ws.dir, 'spec.pdf'), textPdf(['Only page']));
  await fs.writeFile(path.join(ws.dir, 'fake.png'), 'not a picture\n');
  await fs.writeFile(path.join(ws.dir, 'moving.gif'), await gifOf(20, 20, 3));
  await fs.writeFile(path.join(ws.dir, 'locked.pdf'), textPdf(['secret'], true));
  const jpeg = await photoJpeg(300, 200);
  await fs.writeFile(path.join(ws.dir, 'cut.jpg'), jpeg.subarray(0, Math.floor(jpeg.length / 2)));
  // 200 MB that claims to be a PNG (a sparse file: its header, then nothing written).
  await fs.writeFile(path.join(ws.dir, 'huge.png'), await screenshotPng(10, 10));
  await fs.truncate(path.join(ws.dir, 'huge.png'), 200 * 1024 * 1024);
  await fs.writeFile(path.join(ws.dir, 'secret.png'), await screenshotPng(40, 30));
  await fs.mkdir(path.join(ws.dir, '.claude'), { recursive: true });
  await fs.writeFile(path.join(ws.dir, '.claude/settings.local.json'), JSON.stringify({ permissions: { deny: ['Read(secret.png)'] } }));
  await fs.writeFile(path.join(path.dirname(ws.dir), 'outside.png'), await screenshotPng(40, 30));
  return ws;
}

type Block = Record<string, unknown> & { type: string };

async function anthropic(): Promise<ScriptedServer<AnthropicRequestBody>> {
  const s = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'Seen.' }]));
  servers.push(s);
  return s;
}

describe('cairn -p with images and PDFs', () => {
  it('Anthropic: @shot.png sends an image block of the scaled PNG; @spec.pdf a document block', async () => {
    const ws = await workspace();
    const s = await anthropic();
    const run = await runCairn(['-p', 'what is wrong in @shot.png per @spec.pdf?', '--provider', 'anthropic'], {
      cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: s.url }, timeoutMs: 60_000,
    });
    expect(run.stderr).not.toContain('not sent');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Seen.');
    const content = s.requests[0]!.body.messages[0]!.content as Block[];
    expect(content[0]).toEqual({ type: 'text', text: 'what is wrong in @shot.png per @spec.pdf?' });
    const image = content.find((b) => b.type === 'image')!;
    expect(image['source']).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(await imageInfo((image['source'] as { data: string }).data)).toEqual({ width: 1568, height: 1176, format: 'png' });
    const doc = content.find((b) => b.type === 'document')!;
    expect(doc['source']).toEqual({ type: 'base64', media_type: 'application/pdf', data: textPdf(['Only page']).toString('base64') });
  });

  it('OpenAI-compatible: @shot.png sends an image_url part of the PNG scaled to 2048 px', async () => {
    const ws = await workspace();
    const s = await startOpenAIServer(() => openaiReply({ text: 'Seen.' }));
    servers.push(s);
    const run = await runCairn(['-p', 'look at @shot.png', '--provider', 'openai'], {
      cwd: ws.dir, home: ws.home, env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: s.url }, timeoutMs: 60_000,
    });
    expect(run.code).toBe(0);
    const user = (s.requests[0]!.body.messages as Array<{ role: string; content: unknown }>).find((m) => m.role === 'user')!;
    const url = (user.content as Array<{ type: string; image_url?: { url: string } }>).find((p) => p.type === 'image_url')?.image_url?.url ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(await imageInfo(url.slice('data:image/png;base64,'.length))).toEqual({ width: 2048, height: 1536, format: 'png' });
  });

  it('--input-format stream-json: Claude Code image and document blocks reach the server', async () => {
    const ws = await workspace();
    const s = await anthropic();
    const png = await screenshotPng(64, 48);
    const pdf = textPdf(['From stdin']);
    const line = JSON.stringify({
      type: 'user',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'compare these' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') } },
        ],
      },
    });
    const run = await runCairn(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--provider', 'anthropic'], {
      cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: s.url }, stdin: `${line}\n`, timeoutMs: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const content = s.requests[0]!.body.messages[0]!.content as Block[];
    expect(content[0]).toEqual({ type: 'text', text: 'compare these' });
    expect(content.find((b) => b.type === 'image')!['source']).toEqual({ type: 'base64', media_type: 'image/png', data: png.toString('base64') });
    expect(content.find((b) => b.type === 'document')!['source']).toEqual({ type: 'base64', media_type: 'application/pdf', data: pdf.toString('base64') });
    const prompt = run.events.find((e) => e.type === 'user_prompt');
    expect(prompt).toMatchObject({ attachments: [{ type: 'image', name: 'image-2.png', width: 64, height: 48 }, { type: 'document', name: 'document-3.pdf', pages: 1 }] });
  });

  it('stream-json: an image block whose data is not the image it claims stops the run, naming the block', async () => {
    const ws = await workspace();
    const s = await anthropic();
    const line = JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'x' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.from('hello').toString('base64') } }] } });
    const run = await runCairn(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--provider', 'anthropic'], {
      cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: s.url }, stdin: `${line}\n`, timeoutMs: 60_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('cairn: not sent: image-2.png says media_type image/png but its data is not an image or PDF; nothing was sent.');
    expect(s.requests).toHaveLength(0);
  });

  it.each([
    ['fake.png', 'fake.png is named like a PNG image but its content is not an image or PDF; nothing was sent.'],
    ['moving.gif', 'moving.gif is animated (3 frames)'],
    ['locked.pdf', 'locked.pdf is password-protected'],
    ['cut.jpg', 'cut.jpg could not be decoded'],
    ['huge.png', 'huge.png is 200.0 MB, over the 50.0 MB limit for an image; nothing was sent.'],
    ['secret.png', 'secret.png cannot be attached: a Read deny rule covers it.'],
    ['../outside.png', '../outside.png cannot be attached: it is outside the workspace'],
  ])('@%s: a message naming the file and why, exit 1, nothing sent', async (file, why) => {
    const ws = await workspace();
    const s = await anthropic();
    const run = await runCairn(['-p', `look at @${file}`, '--provider', 'anthropic'], {
      cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: s.url }, timeoutMs: 60_000,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cairn: not sent: ${why}`);
    expect(s.requests).toHaveLength(0);
  });

  it('the offline model acknowledges an attached image by name and size, with no key', async () => {
    const ws = await workspace();
    const run = await runCairn(['-p', 'see @shot.png'], { cwd: ws.dir, home: ws.home, timeoutMs: 60_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/I received image shot\.png · 1568x1176 · \d+ KB\./);
  });
});
