import type { AttachmentBlock, Message } from '../messages.js';
import { toolResultAttachments, toolResultText } from '../messages.js';
import { imageTokenFormulaFor, imageTokens, pdfPageTokens, type ImageTokenFormula } from '../attachments/attachment-tokens.js';

/**
 * A provider-free estimate: about 4 characters per token for Latin text, 1 per CJK character.
 * Used where the provider gave no usage, and to size sections for /context.
 */
export function estimateTokens(text: string): number {
  let wide = 0;
  for (const ch of text) if ((ch.codePointAt(0) ?? 0) > 0x2e80) wide++;
  return Math.ceil((text.length - wide) / 4) + wide;
}

/** What an attachment costs in context, by the provider's published formula (a PDF: its text, plus its pages where they go as images). */
export function attachmentTokens(block: AttachmentBlock, formula: ImageTokenFormula = 'anthropic'): number {
  if (block.type === 'image') return imageTokens(block.width, block.height, formula);
  return estimateTokens(block.text) + pdfPageTokens(block.pages, formula);
}

/**
 * A message's tokens; `formula` counts its images as the provider that receives them does
 * (imageTokenFormulaFor: Anthropic's w*h/750, OpenAI's 512-pixel tiles).
 */
export function estimateMessageTokens(message: Message, formula: ImageTokenFormula = 'anthropic'): number {
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
        n += estimateTokens(toolResultText(b));
        for (const a of toolResultAttachments(b)) n += attachmentTokens(a, formula);
        break;
      case 'image':
      case 'document':
        n += attachmentTokens(b, formula);
        break;
    }
  }
  return n;
}

export function estimateMessagesTokens(messages: readonly Message[], formula: ImageTokenFormula = 'anthropic'): number {
  return messages.reduce((sum, m) => sum + estimateMessageTokens(m, formula), 0);
}

/** The estimated input of one model request to `provider`: its system prompt and messages, images sized for its API. */
export function estimateRequestTokens(system: string, messages: readonly Message[], provider: { api?: 'anthropic' | 'openai' }): number {
  return estimateTokens(system) + estimateMessagesTokens(messages, imageTokenFormulaFor(provider));
}
