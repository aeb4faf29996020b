import type { Message, ToolUseBlock } from '../messages.js';
import { isAttachment, toolResultAttachments, toolResultText } from '../messages.js';
import { attachmentNames } from '../attachments/attachment-label.js';
import { itemAt } from '../util/invariant.js';

export const DEFAULT_KEEP_RECENT_RESULTS = 8;
/** Results this short cost less than the stub that would replace them. */
const MIN_STUB_CHARS = 200;
/** The latest reads of this many distinct files stay: the model is still working from them. */
const KEEP_RECENT_FILES = 3;
/** The images and PDFs of this many of the latest prompts that carried any stay; older ones are named, not sent. */
export const KEEP_RECENT_PROMPT_ATTACHMENTS = 3;

/**
 * The tool results the model has not been sent yet: those after its last message (the answers to
 * the calls it just made, however many), which no earlier request carried.
 */
function unseenResults(messages: readonly Message[]): string[] {
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  return messages.slice(lastAssistant + 1).flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : [])));
}

/**
 * Replaces old tool results beyond the most recent `keepRecent` by a short stub naming the tool
 * and input, keeping the latest read of each recently read file. A result the model has not seen
 * yet is never stubbed: twelve parallel calls send all twelve results in full once. Applied to the
 * request only: the session keeps the full history. Never mutates its input.
 */
export function microCompact(messages: readonly Message[], keepRecent = DEFAULT_KEEP_RECENT_RESULTS): Message[] {
  return withOldResultsCleared(withOldPromptAttachmentsDropped(messages), keepRecent);
}

/**
 * The images and PDFs the user attached to prompts older than the latest KEEP_RECENT_PROMPT_ATTACHMENTS that had any:
 * each becomes a line naming what was dropped (the heaviest part of an old prompt, and seldom still needed). Applied
 * to the request only, like the rest; a stub once made stays the same, so the cached prefix holds.
 */
function withOldPromptAttachmentsDropped(messages: readonly Message[]): readonly Message[] {
  const carrying = messages.flatMap((m, i) => (m.role === 'user' && m.content.some(isAttachment) ? [i] : []));
  if (carrying.length <= KEEP_RECENT_PROMPT_ATTACHMENTS) return messages;
  const old = new Set(carrying.slice(0, -KEEP_RECENT_PROMPT_ATTACHMENTS));
  return messages.map((m, i) => {
    if (!old.has(i)) return m;
    const dropped = m.content.filter(isAttachment);
    const kept = m.content.filter((b) => !isAttachment(b));
    return { role: m.role, content: [...kept, { type: 'text' as const, text: `[${attachmentNames(dropped)} attached to this prompt, dropped from the context to save space; ask the user to attach it again if you need it.]` }] };
  });
}

function withOldResultsCleared(messages: readonly Message[], keepRecent: number): Message[] {
  const uses = new Map<string, ToolUseBlock>();
  const order: string[] = [];
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === 'tool_use') uses.set(b.id, b);
      if (b.type === 'tool_result') order.push(b.tool_use_id);
    }
  }
  if (order.length <= keepRecent) return messages as Message[];
  const keep = new Set([...order.slice(-keepRecent), ...unseenResults(messages)]);
  const recentFiles: string[] = [];
  for (let i = order.length - 1; i >= 0 && recentFiles.length < KEEP_RECENT_FILES; i--) {
    const id = itemAt(order, i, 'tool result id');
    const use = uses.get(id);
    const path = use?.name === 'read_file' ? (use.input as { path?: unknown }).path : undefined;
    if (typeof path === 'string' && !recentFiles.includes(path)) {
      recentFiles.push(path);
      keep.add(id);
    }
  }
  return messages.map((m) => {
    if (!m.content.some((b) => b.type === 'tool_result' && !keep.has(b.tool_use_id))) return m;
    return {
      role: m.role,
      content: m.content.map((b) => {
        if (b.type !== 'tool_result' || keep.has(b.tool_use_id)) return b;
        const text = toolResultText(b);
        // An old image or PDF is the heaviest thing a result can hold: it goes whatever the text's length.
        const attached = toolResultAttachments(b);
        if (text.length < MIN_STUB_CHARS && attached.length === 0) return b;
        const use = uses.get(b.tool_use_id);
        const input = use ? JSON.stringify(use.input).slice(0, 120) : '';
        return { ...b, content: `[Old result of ${use?.name ?? 'a tool'} ${input} cleared to save context (${text.length} chars${attached.length ? `, ${attachmentNames(attached)} dropped` : ''}); call the tool again if you need it.]` };
      }),
    };
  });
}
