import type { ContentBlock, Message, ToolResultBlock } from '../messages.js';
import { itemAt } from '../util/invariant.js';

export const INTERRUPTED_RESULT = 'Tool call was interrupted before it produced a result.';
const EMPTY_PLACEHOLDER = '(empty)';

export interface NormalizeResult {
  messages: Message[];
  /** One line per repair made, for `notice` events. Empty when the history was already valid. */
  repairs: string[];
}

/**
 * Makes a history valid for any provider before a model call:
 * 1. tool_result blocks come first in their user message;
 * 2. every tool_use gets a tool_result in the next user message (a placeholder if missing),
 *    and tool_results that answer no tool_use are dropped;
 * 3. internal fields (keys starting with `_`) are stripped;
 * 4. empty content is filled.
 * Consecutive messages of one role are merged (an aborted turn leaves two user messages).
 * Never mutates its input.
 */
export function normalizeMessages(input: readonly Message[]): NormalizeResult {
  const repairs: string[] = [];
  const stripped = input.map((m) => stripInternal(m, repairs));
  const merged = mergeSameRole(stripped);
  const out: Message[] = [];

  for (let i = 0; i < merged.length; i++) {
    const message = itemAt(merged, i, 'message');
    if (message.role === 'assistant') {
      out.push(message);
      const uses = message.content.filter((b) => b.type === 'tool_use');
      if (uses.length === 0) continue;
      const next = merged[i + 1];
      const nextContent = next?.role === 'user' ? next.content : [];
      const results = new Map<string, ToolResultBlock>();
      for (const b of nextContent) if (b.type === 'tool_result') results.set(b.tool_use_id, b);
      const paired: ToolResultBlock[] = [];
      for (const use of uses) {
        const found = results.get(use.id);
        if (found) paired.push(found);
        else {
          repairs.push(`added a placeholder result for unanswered tool call ${use.name} (${use.id})`);
          paired.push({ type: 'tool_result', tool_use_id: use.id, content: INTERRUPTED_RESULT, is_error: true });
        }
      }
      const usedIds = new Set(uses.map((u) => u.id));
      const others = nextContent.filter((b) => b.type !== 'tool_result');
      const orphans = nextContent.filter((b) => b.type === 'tool_result' && !usedIds.has(b.tool_use_id));
      for (const o of orphans) {
        if (o.type === 'tool_result') repairs.push(`dropped a tool result with no matching call (${o.tool_use_id})`);
      }
      const firstNonResult = nextContent.findIndex((b) => b.type !== 'tool_result');
      const lastResult = nextContent.findLastIndex((b) => b.type === 'tool_result');
      if (firstNonResult !== -1 && lastResult > firstNonResult) {
        repairs.push('moved tool results before other content in a user message');
      }
      out.push({ role: 'user', content: [...paired, ...others] });
      if (next?.role === 'user') i++;
      continue;
    }
    // A user message not following tool calls: tool_results here answer nothing.
    const orphanCount = message.content.filter((b) => b.type === 'tool_result').length;
    if (orphanCount > 0) {
      repairs.push(`dropped ${orphanCount} tool result(s) with no matching call`);
      out.push({ role: 'user', content: message.content.filter((b) => b.type !== 'tool_result') });
    } else {
      out.push(message);
    }
  }

  const filled = out.map((m) => fillEmpty(m, repairs));
  return { messages: filled, repairs };
}

function stripInternal(message: Message, repairs: string[]): Message {
  let changed = false;
  const content = message.content.map((block) => {
    const keys = Object.keys(block).filter((k) => k.startsWith('_'));
    if (keys.length === 0) return block;
    changed = true;
    const copy: Record<string, unknown> = { ...block };
    for (const k of keys) delete copy[k];
    return copy as ContentBlock;
  });
  if (!changed) return message;
  repairs.push('stripped internal fields from a message');
  return { role: message.role, content };
}

function mergeSameRole(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === m.role) out[out.length - 1] = { role: m.role, content: [...last.content, ...m.content] };
    else out.push(m);
  }
  return out;
}

function fillEmpty(message: Message, repairs: string[]): Message {
  const content = message.content.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
  const droppedEmptyText = content.length !== message.content.length;
  if (content.length > 0) {
    if (droppedEmptyText) repairs.push(`removed empty text from a ${message.role} message`);
    return droppedEmptyText ? { role: message.role, content } : message;
  }
  repairs.push(`filled an empty ${message.role} message`);
  return { role: message.role, content: [{ type: 'text', text: EMPTY_PLACEHOLDER }] };
}
