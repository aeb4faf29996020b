import type { Message } from '../messages.js';

/**
 * A provider-free estimate: about 4 characters per token for Latin text, 1 per CJK character.
 * Used where the provider gave no usage, and to size sections for /context.
 */
export function estimateTokens(text: string): number {
  let wide = 0;
  for (const ch of text) if ((ch.codePointAt(0) ?? 0) > 0x2e80) wide++;
  return Math.ceil((text.length - wide) / 4) + wide;
}

export function estimateMessageTokens(message: Message): number {
  let n = 4;
  for (const b of message.content) {
    switch (b.type) {
      case 'text':
        n += estimateTokens(b.text);
        break;
      case 'thinking':
        n += estimateTokens(b.thinking);
        break;
      case 'redacted_thinking':
        n += estimateTokens(b.data);
        break;
      case 'tool_use':
        n += estimateTokens(b.name) + estimateTokens(JSON.stringify(b.input));
        break;
      case 'tool_result':
        n += estimateTokens(typeof b.content === 'string' ? b.content : b.content.map((c) => c.text).join(''));
        break;
    }
  }
  return n;
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m), 0);
}
