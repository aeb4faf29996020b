import type { AttachmentBlock, Message } from '../messages.js';
import { isAttachment, textOf, userText } from '../messages.js';
import { attachmentLabel } from '../attachments/attachment-label.js';
import type { ModelProvider } from '../providers/provider.js';
import { estimateMessagesTokens } from './tokens.js';
import { imageTokenFormulaFor } from '../attachments/attachment-tokens.js';
import { itemAt } from '../util/invariant.js';
import { MEMORY_UPDATES_ASK } from './memory-updates.js';

export const COMPACTION_SYSTEM_PROMPT =
  'You are compacting a coding session so it can continue in a smaller context. Write a summary ' +
  'that lets the work continue without the earlier messages: the user\'s goals and instructions, ' +
  'decisions made, files read and changed (with paths), commands run and their outcomes, errors ' +
  'and how they were resolved, and what remains to do. Be specific and concise; use markdown.\n\n' +
  MEMORY_UPDATES_ASK;

export const SUMMARY_PREFIX = 'This session continues from an earlier conversation that was compacted. Summary of it:';

export interface CompactionResult {
  messages: Message[];
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
  summarisedCount: number;
  /** The images and PDFs of the summarised part: named in their place, not sent to the summariser. */
  droppedAttachments: AttachmentBlock[];
}

/**
 * The tail starts at the last user prompt (text, with or without images and PDFs, but no tool
 * result), so no tool_use/tool_result pair is split.
 */
export function splitForCompaction(messages: readonly Message[]): { head: Message[]; tail: Message[] } {
  for (let i = messages.length - 1; i > 0; i--) {
    const m = itemAt(messages, i, 'message');
    const plainPrompt = m.role === 'user' && m.content.some((b) => b.type === 'text') && m.content.every((b) => b.type === 'text' || isAttachment(b));
    if (plainPrompt) return { head: messages.slice(0, i), tail: messages.slice(i) };
  }
  return { head: [], tail: [...messages] };
}

/**
 * Summarises the head of the history with the model and keeps the tail verbatim.
 * Returns undefined when there is nothing before the last prompt to summarise.
 * Throws what the provider throws (the caller reports it and keeps the full history).
 */
export async function compactMessages(opts: {
  messages: readonly Message[];
  provider: ModelProvider;
  signal: AbortSignal;
  instructions?: string;
}): Promise<CompactionResult | undefined> {
  const { head, tail } = splitForCompaction(opts.messages);
  if (head.length === 0) return undefined;
  const ask = `Summarise the conversation above for the continuation.${opts.instructions ? `\n\nAlso: ${opts.instructions}` : ''}`;
  // The heaviest and least summarisable part goes first: the summariser reads each image's or PDF's name and size, not its bytes.
  const { messages: named, dropped } = withAttachmentsNamed(head);
  const summary = await summarizeMessages({ messages: named, provider: opts.provider, signal: opts.signal, ask });
  const messages = [userText(`${SUMMARY_PREFIX}\n\n${summary}`), ...tail];
  return {
    messages,
    summary,
    tokensBefore: estimateMessagesTokens(opts.messages, imageTokenFormulaFor(opts.provider)),
    tokensAfter: estimateMessagesTokens(messages, imageTokenFormulaFor(opts.provider)),
    summarisedCount: head.length,
    droppedAttachments: dropped,
  };
}

/** Each image and PDF (in prompts and in tool results) replaced by a line naming it, file and size. */
export function withAttachmentsNamed(messages: readonly Message[]): { messages: Message[]; dropped: AttachmentBlock[] } {
  const dropped: AttachmentBlock[] = [];
  const named = (block: AttachmentBlock): { type: 'text'; text: string } => {
    dropped.push(block);
    return { type: 'text', text: `[${attachmentLabel(block)} was attached here; dropped before this part was summarised]` };
  };
  const out = messages.map((m): Message => {
    if (!m.content.some((b) => isAttachment(b) || (b.type === 'tool_result' && typeof b.content !== 'string' && b.content.some(isAttachment)))) return m;
    return {
      role: m.role,
      content: m.content.map((b) => {
        if (isAttachment(b)) return named(b);
        if (b.type === 'tool_result' && typeof b.content !== 'string') return { ...b, content: b.content.map((c) => (isAttachment(c) ? named(c) : c)) };
        return b;
      }),
    };
  });
  return { messages: out, dropped };
}

/**
 * The model's summary of `messages` (the compaction prompt, `ask` as the last user message).
 * Throws what the provider throws, or when the summary is empty.
 */
export async function summarizeMessages(opts: { messages: readonly Message[]; provider: ModelProvider; signal: AbortSignal; ask: string }): Promise<string> {
  let summary: string | undefined;
  for await (const event of opts.provider.stream({
    model: opts.provider.model,
    system: COMPACTION_SYSTEM_PROMPT,
    messages: [...opts.messages, userText(opts.ask)],
    tools: [],
    maxTokens: 8192,
    signal: opts.signal,
  })) {
    if (event.type === 'message') summary = textOf(event.message).trim();
  }
  if (!summary) throw new Error('the model returned an empty summary');
  return summary;
}

/** What the notice after a compaction says about the images and PDFs it did not send to the summariser. */
export function droppedAttachmentsNotice(dropped: readonly AttachmentBlock[]): string {
  const images = dropped.filter((b) => b.type === 'image').length;
  const pdfs = dropped.length - images;
  const what = [images ? `${images} ${images === 1 ? 'image' : 'images'}` : '', pdfs ? `${pdfs} ${pdfs === 1 ? 'PDF' : 'PDFs'}` : ''].filter(Boolean).join(' and ');
  return `Compaction dropped ${what} from the summarised part first (the summary names them, it does not hold them): ${dropped.map((b) => attachmentLabel(b)).join('; ')}.`;
}
