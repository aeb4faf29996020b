import type { AgentEvent } from '../events.js';
import type { Message, ToolResultBlock } from '../messages.js';
import { userPrompt } from '../messages.js';
import { sessionFolderOf, withBlobsLoaded } from './session-blobs.js';
import { promptBlocked } from './prompt-blocked.js';
import { shellCommandMessage } from './user-shell.js';
import type { PromptHistory, PromptMark } from './rewind.js';
import { INTERRUPTED_RESULT } from '../loop/normalize.js';
import type { SessionHeader } from './session-format.js';
import { readSessionRecords, SessionFormatError, type ReadRecordsOptions } from './session-records.js';

export { SessionFormatError };

/** A record that fits no event this cairn knows, even after migration: kept as it was read. */
export interface UnknownRecord {
  line: number;
  record: unknown;
  /** The first schema problem, e.g. "message.role: Invalid input". */
  reason: string;
}

export interface LoadedSession {
  header: SessionHeader;
  /** The persisted events, in order: the transcript to re-render. */
  events: AgentEvent[];
  /** The conversation rebuilt from the events, repaired where a crash cut it. */
  messages: Message[];
  /** The prompts in `messages` that rewind can go back to (none from before a compaction or /clear), and how many the file holds. */
  prompts: PromptHistory;
  /**
   * Records kept but not understood (written by another cairn version, or edited by hand). They
   * stay in the file untouched; each is also a warning naming the file and line.
   */
  unknown: UnknownRecord[];
  /** Human-readable warnings (corrupt lines, unknown records, repairs), each naming the file. */
  warnings: string[];
}

export type LoadSessionOptions = ReadRecordsOptions;

/**
 * Reads a session file (session-records.ts: older formats migrated, a newer one refused, each
 * line bounded) and folds its records: a line that is not JSON is skipped with a warning; a record
 * that fails today's schema is kept (`unknown`) and reported, never silently dropped.
 */
export async function loadSession(file: string, options: LoadSessionOptions = {}): Promise<LoadedSession> {
  const warnings: string[] = [];
  const unknown: UnknownRecord[] = [];
  let header: SessionHeader | undefined;
  const events: AgentEvent[] = [];
  for await (const record of readSessionRecords(file, options)) {
    if (record.kind === 'header') header = record.header;
    else if (record.kind === 'event') events.push(record.event);
    else {
      if (record.kind === 'unknown') unknown.push({ line: record.line, record: record.record, reason: record.reason });
      warnings.push(record.warning);
    }
  }
  if (!header) throw new SessionFormatError(`${file}: empty session file`);
  const rebuilt = rebuildMessages(events);
  const { repairs, prompts } = rebuilt;
  for (const r of repairs) warnings.push(`${file}: ${r}`);
  const { messages, missing } = withBlobsLoaded(rebuilt.messages, sessionFolderOf(file));
  for (const m of missing) warnings.push(`${file}: the attachment ${m} is missing; the conversation goes on without it`);
  return { header, events, messages, prompts, unknown, warnings };
}

/**
 * Folds persisted events back into the conversation. Tool results are gathered per assistant
 * message and put in its call order; calls with no result (the process died mid-tool) get a
 * placeholder, and each such repair is reported.
 */
export function rebuildMessages(events: readonly AgentEvent[]): { messages: Message[]; repairs: string[]; prompts: PromptHistory } {
  let messages: Message[] = [];
  let prompts: PromptMark[] = [];
  // Every prompt the file holds, rewound or cleared ones too: each prompt's id is its place in this count.
  let count = 0;
  const repairs: string[] = [];
  let pending: { calls: { id: string; name: string }[]; results: Map<string, ToolResultBlock> } | undefined;

  const flush = (): void => {
    if (!pending) return;
    const answered = pending.results;
    const results = pending.calls.map((call) => {
      const found = answered.get(call.id);
      if (found) return found;
      repairs.push(`tool call ${call.name} (${call.id}) had no result; added a placeholder`);
      return { type: 'tool_result' as const, tool_use_id: call.id, content: INTERRUPTED_RESULT, is_error: true };
    });
    messages.push({ role: 'user', content: results });
    pending = undefined;
  };

  // A user_prompt with nothing after it yet but its hooks' words: a block among them takes it back.
  let promptOpen = false;
  for (const event of events) {
    if (promptOpen && promptBlocked(event)) {
      messages.pop();
      prompts.pop();
      count--;
    }
    if (event.type !== 'notice' && event.type !== 'hook') promptOpen = event.type === 'user_prompt';
    else if (promptBlocked(event)) promptOpen = false;
    switch (event.type) {
      case 'user_prompt':
        flush();
        prompts.push({ turn: messages.length, id: count++, text: event.text });
        messages.push(userPrompt(event.text, event.attachments));
        break;
      case 'assistant': {
        flush();
        messages.push(event.message);
        const calls = event.message.content.flatMap((b) => (b.type === 'tool_use' ? [{ id: b.id, name: b.name }] : []));
        if (calls.length > 0) pending = { calls, results: new Map() };
        break;
      }
      case 'tool_result':
        pending?.results.set(event.id, {
          type: 'tool_result',
          tool_use_id: event.id,
          content: event.attachments?.length ? [{ type: 'text', text: event.content }, ...event.attachments] : event.content,
          ...(event.is_error ? { is_error: true } : {}),
        });
        break;
      case 'compact':
        flush();
        messages = [...event.messages];
        prompts = [];
        break;
      case 'rewind':
        // The conversation went back to before an earlier prompt: what followed is not carried on.
        pending = undefined;
        messages = [...event.messages];
        prompts = prompts.filter((p) => p.turn < messages.length);
        break;
      case 'shell_command':
        // A `!` command the user ran: the model saw it as a user message.
        if (event.status === 'done') {
          flush();
          messages.push(shellCommandMessage(event));
        }
        break;
      case 'clear':
        // /clear: what came before is not carried on; a call cut off by it needs no placeholder.
        pending = undefined;
        messages = [];
        prompts = [];
        break;
      default:
        break;
    }
  }
  flush();
  return { messages, repairs, prompts: { marks: prompts, count } };
}
