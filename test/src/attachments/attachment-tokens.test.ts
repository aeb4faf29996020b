import { describe, expect, it } from 'vitest';
import { anthropicImageTokens, imageTokenFormulaFor, openaiImageTokens } from '../../../src/attachments/attachment-tokens.js';
import { estimateMessagesTokens } from '../../../src/context/tokens.js';
import type { ImageBlock, Message } from '../../../src/messages.js';
import { userPrompt, userText } from '../../../src/messages.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { contextSections } from '../../../components/commands/context-report.js';

const image = (width: number, height: number): ImageBlock => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, name: 'shot.png', width, height, bytes: 8 });

async function offlineInputTokens(messages: Message[]): Promise<number> {
  for await (const e of createOfflineProvider().stream({ model: 'offline-scripted-1', system: '', messages, tools: [], maxTokens: 1000, signal: new AbortController().signal })) {
    if (e.type === 'usage') return e.usage.input_tokens;
  }
  throw new Error('no usage event');
}

describe('image tokens by each provider’s published formula', () => {
  it('Anthropic: width x height / 750 of the image as sent', () => {
    expect(anthropicImageTokens(1568, 980)).toBe(Math.ceil((1568 * 980) / 750)); // 2049
    expect(anthropicImageTokens(200, 200)).toBe(54);
  });

  it('OpenAI high detail: fit in 2048x2048, shortest side to 768, 170 per 512 px tile plus 85 (the worked examples of its docs)', () => {
    expect(openaiImageTokens(1024, 1024)).toBe(765); // 768x768: 4 tiles
    expect(openaiImageTokens(2048, 4096)).toBe(1105); // 1024x2048 -> 768x1536: 6 tiles
    expect(openaiImageTokens(4000, 3000)).toBe(765); // 2048x1536 -> 1024x768: 4 tiles
    expect(openaiImageTokens(300, 200)).toBe(255); // small images are not scaled up: 1 tile
  });

  it('each provider counts by its own API’s formula; the offline model as Anthropic', () => {
    expect(imageTokenFormulaFor({ api: 'openai' })).toBe('openai');
    expect(imageTokenFormulaFor({ api: 'anthropic' })).toBe('anthropic');
    expect(imageTokenFormulaFor(createOfflineProvider())).toBe('anthropic');
  });

  it('a conversation’s estimate counts an attached image by the formula asked for (prompt and tool result alike)', () => {
    const without = [userText('look')];
    const withImage = [userPrompt('look', [image(1568, 980)])];
    expect(estimateMessagesTokens(withImage) - estimateMessagesTokens(without)).toBe(2049);
    expect(estimateMessagesTokens(withImage, 'openai') - estimateMessagesTokens(without, 'openai')).toBe(openaiImageTokens(1568, 980));
    const toolImage: Message[] = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'look' }, image(1024, 1024)] }] }];
    const toolText: Message[] = [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'look' }] }] }];
    expect(estimateMessagesTokens(toolImage, 'openai') - estimateMessagesTokens(toolText, 'openai')).toBe(765);
  });

  it('the context bar’s figure (the usage the offline model reports) grows by the image’s tokens when a prompt carries one', async () => {
    const plain = await offlineInputTokens([userText('what is in the picture?')]);
    const pictured = await offlineInputTokens([userPrompt('what is in the picture?', [image(1568, 980)])]);
    expect(pictured - plain).toBe(2049);
  });

  it('/context counts the messages’ images by the provider’s formula', () => {
    const messages = [userPrompt('look', [image(4000, 3000)])];
    const section = (formula: 'anthropic' | 'openai') => contextSections([], [], messages, formula).find((s) => s.name.startsWith('messages'))?.tokens ?? 0;
    expect(section('anthropic') - section('openai')).toBe(anthropicImageTokens(4000, 3000) - openaiImageTokens(4000, 3000));
  });
});
