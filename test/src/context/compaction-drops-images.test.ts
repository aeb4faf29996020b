import { afterEach, describe, expect, it } from 'vitest';
import { IMAGE_LIMITS } from '../../../src/attachments/image-limits.js';
import { prepareImage } from '../../../src/attachments/prepare-image.js';
import { withAttachmentsNamed } from '../../../src/context/compact.js';
import type { AgentEvent } from '../../../src/events.js';
import type { ImageBlock, Message } from '../../../src/messages.js';
import { anthropicReply, type AnthropicRequestBody } from '../../helpers/anthropic-server.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { screenshotPng } from '../../helpers/image-files.js';

afterEach(closeAnthropicRuntimes);

/** Every image and document block in a request, tool results' content included. */
function mediaIn(body: AnthropicRequestBody): string[] {
  const blocks = body.messages.flatMap((m) => m.content.flatMap((b) => (b['type'] === 'tool_result' && Array.isArray(b['content']) ? [b, ...(b['content'] as Array<Record<string, unknown>>)] : [b])));
  return blocks.flatMap((b) => (b['type'] === 'image' || b['type'] === 'document' ? [String(b['type'])] : []));
}

const textsIn = (body: AnthropicRequestBody): string[] => body.messages.flatMap((m) => m.content.flatMap((b) => (b['type'] === 'text' ? [String(b['text'])] : [])));
const isSummariser = (body: AnthropicRequestBody): boolean => (body.system ?? []).some((s) => s.text.includes('You are compacting a coding session'));

describe('compaction drops old image payloads before summarising', () => {
  it('the summariser request (Anthropic, loopback) carries no image block, only a line naming each file and size; a notice says so', async () => {
    const { runtime, server } = await anthropicRuntime({
      script: (req) => anthropicReply([{ type: 'text', text: isSummariser(req.body) ? 'SUMMARY: the user showed a broken layout.' : 'ok' }]),
    });
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    const image = await prepareImage(await screenshotPng(1200, 800), 'image/png', 'shot.png', IMAGE_LIMITS.anthropic);
    const second = await prepareImage(await screenshotPng(640, 400), 'image/png', 'dialog.png', IMAGE_LIMITS.anthropic);
    await runtime.session.run('what is wrong here?', [image]);
    await runtime.session.run('and in this dialog?', [second]);
    await runtime.session.run('thanks, go on');
    expect(mediaIn(server.requests.at(-1)!.body)).toEqual(['image', 'image']);

    await runtime.session.compact();
    const summariser = server.requests.find((r) => isSummariser(r.body));
    expect(summariser, 'a summariser request was sent').toBeDefined();
    expect(mediaIn(summariser!.body)).toEqual([]);
    const label = `image shot.png · ${image.width}x${image.height} · ${Math.round(image.bytes / 1024)} KB`;
    expect(textsIn(summariser!.body)).toContain(`[${label} was attached here; dropped before this part was summarised]`);
    expect(textsIn(summariser!.body).some((t) => t.includes('dialog.png') && t.includes('was attached here'))).toBe(true);
    expect(summariser!.raw).not.toContain(image.source.type === 'base64' ? image.source.data.slice(0, 200) : 'no data');

    const notices = events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
    expect(notices.find((m) => m.startsWith('Compaction dropped 2 images from the summarised part first'))).toContain(label);
    expect(events.some((e) => e.type === 'compact')).toBe(true);
  }, 60_000);

  it('a prompt with an image is where the kept part can start: its image stays, sent verbatim, the older ones go', async () => {
    const { runtime, server } = await anthropicRuntime({
      script: (req) => anthropicReply([{ type: 'text', text: isSummariser(req.body) ? 'SUMMARY' : 'ok' }]),
    });
    const old = await prepareImage(await screenshotPng(320, 200), 'image/png', 'old.png', IMAGE_LIMITS.anthropic);
    const latest = await prepareImage(await screenshotPng(400, 300), 'image/png', 'latest.png', IMAGE_LIMITS.anthropic);
    await runtime.session.run('first', [old]);
    await runtime.session.run('second', [latest]);
    await runtime.session.compact();
    const summariser = server.requests.find((r) => isSummariser(r.body));
    expect(mediaIn(summariser!.body)).toEqual([]);
    expect(textsIn(summariser!.body)).not.toContain('second');
    await runtime.session.run('go on');
    const after = server.requests.at(-1)!.body;
    expect(mediaIn(after)).toEqual(['image']);
    expect(textsIn(after)).toContain('second');
  }, 60_000);

  it('images and PDFs read by tools are named in their tool result, the result kept', () => {
    const image: ImageBlock = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, name: 'a.png', width: 10, height: 20, bytes: 2048 };
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.png' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'Read image a.png' }, image] }] },
    ];
    const { messages: named, dropped } = withAttachmentsNamed(messages);
    expect(dropped).toEqual([image]);
    expect(named[1]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'Read image a.png' }, { type: 'text', text: '[image a.png · 10x20 · 2 KB was attached here; dropped before this part was summarised]' }] }] });
    expect(named[0]).toBe(messages[0]);
  });
});
