// Images and PDFs as the providers receive them: a loopback Anthropic server and a loopback
// OpenAI-compatible one (SDK-exact) record each request; read_file and prompt attachments go through
// the real loop, tools, permission chain and request builders.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import { attachFile } from '../../../src/attachments/attach-file.js';
import { IMAGE_LIMITS } from '../../../src/attachments/image-limits.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { anthropicReply, type AnthropicRequestBody } from '../../helpers/anthropic-server.js';
import { openaiReply, startOpenAIServer, type OpenAIRequestBody, type ScriptedServer } from '../../helpers/openai-server.js';
import { imageInfo, screenshotPng } from '../../helpers/image-files.js';
import { textPdf } from '../../helpers/pdf-files.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const opened: Array<{ runtime?: Runtime; server: ScriptedServer<OpenAIRequestBody> }> = [];
afterEach(async () => {
  await closeAnthropicRuntimes();
  for (const o of opened.splice(0)) {
    o.runtime?.close();
    await o.server.close();
  }
});

/** Answers with one read_file call on `file` first, then "done". */
function readThenDone(file: string) {
  return (_req: unknown, index: number) =>
    index === 0 ? anthropicReply([{ type: 'tool_use', id: 'toolu_read_1', name: 'read_file', input: { path: file } }]) : anthropicReply([{ type: 'text', text: 'done' }]);
}

async function writeFiles(dir: string): Promise<void> {
  await fs.writeFile(path.join(dir, 'shot.png'), await screenshotPng(4000, 3000));
  await fs.writeFile(path.join(dir, 'doc.pdf'), textPdf(['Hello page one', 'Second page here']));
  await fs.writeFile(path.join(dir, 'secret.png'), await screenshotPng(40, 30));
  await fs.writeFile(path.join(dir, 'fake.png'), 'just text\n');
  await fs.mkdir(path.join(dir, '.claude'), { recursive: true });
  await fs.writeFile(path.join(dir, '.claude/settings.local.json'), JSON.stringify({ permissions: { deny: ['Read(secret.png)'] } }));
}

type AnthropicBlock = Record<string, unknown> & { type: string };

function lastToolResult(body: AnthropicRequestBody): { content: AnthropicBlock[] | string; is_error?: boolean } {
  const result = body.messages.at(-1)?.content.find((b) => b.type === 'tool_result');
  if (!result) throw new Error('no tool_result in the last message');
  return result as never;
}

describe('Anthropic: read_file on images and PDFs', () => {
  it('sends a scaled PNG as an image block inside the tool result, its size in the text', async () => {
    const { runtime, server } = await anthropicRuntime({ script: readThenDone('shot.png'), setUp: ({ dir }) => writeFiles(dir) });
    const end = await runtime.session.run('look at shot.png');
    expect(end.reason).toBe('completed');
    const result = lastToolResult(server.requests[1]!.body);
    expect(Array.isArray(result.content)).toBe(true);
    const [text, image] = result.content as AnthropicBlock[];
    expect(text).toEqual({ type: 'text', text: expect.stringMatching(/^Read image shot\.png · 1568x1176 · \d+ KB: attached below\.$/) });
    expect(image).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
    expect(await imageInfo((image!['source'] as { data: string }).data)).toEqual({ width: 1568, height: 1176, format: 'png' });
  });

  it('sends a PDF as a document block', async () => {
    const { runtime, server } = await anthropicRuntime({ script: readThenDone('doc.pdf'), setUp: ({ dir }) => writeFiles(dir) });
    await runtime.session.run('read doc.pdf');
    const [, doc] = lastToolResult(server.requests[1]!.body).content as AnthropicBlock[];
    expect(doc).toEqual({ type: 'document', title: 'doc.pdf', source: { type: 'base64', media_type: 'application/pdf', data: textPdf(['Hello page one', 'Second page here']).toString('base64') } });
  });

  it.each([
    ['secret.png', /Permission denied/],
    ['fake.png', /fake\.png is named like a PNG image but its content is not an image or PDF; nothing was sent\./],
    ['../outside.png', /outside|Permission denied|denied/i],
  ])('%s: an error result naming why, and no image is sent', async (file, why) => {
    const { runtime, server, dir } = await anthropicRuntime({ script: readThenDone(file), setUp: ({ dir: d }) => writeFiles(d) });
    await fs.writeFile(path.join(path.dirname(dir), 'outside.png'), await screenshotPng(40, 30));
    await runtime.session.run(`look at ${file}`);
    const result = lastToolResult(server.requests[1]!.body);
    expect(result.is_error).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(why);
    expect(JSON.stringify(server.requests[1]!.body)).not.toContain('"type":"image"');
  });

  it('a prompt with an attached image sends an image block after the text', async () => {
    const { runtime, server, dir } = await anthropicRuntime({ setUp: ({ dir: d }) => writeFiles(d) });
    const shot = await attachFile(path.join(dir, 'shot.png'), 'shot.png', IMAGE_LIMITS.anthropic);
    await runtime.session.run('what is wrong here?', [shot]);
    const content = server.requests[0]!.body.messages.at(-1)!.content;
    expect(content[0]).toMatchObject({ type: 'text', text: 'what is wrong here?' });
    expect(content[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png' } });
  });
});

describe('OpenAI-compatible: images as image_url parts, PDFs as text', () => {
  async function openaiRuntime(script: (req: unknown, i: number) => ReturnType<typeof openaiReply>): Promise<{ runtime: Runtime; server: ScriptedServer<OpenAIRequestBody>; dir: string }> {
    const server = await startOpenAIServer(script);
    const entry: (typeof opened)[number] = { server };
    opened.push(entry);
    const ws = await tempWorkspace();
    await writeFiles(ws.dir);
    entry.runtime = await createRuntime({
      cwd: ws.dir,
      env: { HOME: path.join(ws.home, 'user'), CAIRN_HOME: ws.home, OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.url },
      interactive: false,
      persist: false,
      provider: 'openai',
    });
    return { runtime: entry.runtime, server, dir: ws.dir };
  }
  const readFirst = (file: string) => (_req: unknown, i: number) =>
    i === 0 ? openaiReply({ toolCalls: [{ id: 'call_1', name: 'read_file', arguments: JSON.stringify({ path: file }) }] }) : openaiReply({ text: 'done' });

  it('read_file doc.pdf sends the text page by page in the tool message', async () => {
    const { runtime, server } = await openaiRuntime(readFirst('doc.pdf'));
    await runtime.session.run('read doc.pdf');
    const tool = server.requests[1]!.body.messages.find((m) => m.role === 'tool');
    expect(tool?.content).toContain('<document name="doc.pdf" pages="2">\n--- page 1 ---\nHello page one\n\n--- page 2 ---\nSecond page here\n</document>');
  });

  it('read_file shot.png sends the image, scaled to 2048, in a user message after the tool message', async () => {
    const { runtime, server } = await openaiRuntime(readFirst('shot.png'));
    await runtime.session.run('look at shot.png');
    const messages = server.requests[1]!.body.messages as Array<{ role: string; content: unknown }>;
    const toolAt = messages.findIndex((m) => m.role === 'tool');
    expect(messages[toolAt]!.content).toContain('(The image shot.png follows in the next user message.)');
    const parts = messages[toolAt + 1]!.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(messages[toolAt + 1]!.role).toBe('user');
    const url = parts.find((p) => p.type === 'image_url')?.image_url?.url ?? '';
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(await imageInfo(url.slice('data:image/png;base64,'.length))).toEqual({ width: 2048, height: 1536, format: 'png' });
  });
});
