import { AgentEventSchema, type AgentEvent } from '../events.js';
import type { Message, ToolResultBlock } from '../messages.js';
import { userText } from '../messages.js';
import { INTERRUPTED_RESULT } from '../loop/normalize.js';
import { MAX_SESSION_LINE_BYTES, readSessionLines, type ReadLinesOptions } from './session-lines.js';
import { SESSION_FORMAT_VERSION, type SessionHeader } from './session-writer.js';

export interface LoadedSession {
  header: SessionHeader;
  /** The persisted events, in order: the transcript to re-render. */
  events: AgentEvent[];
  /** The conversation rebuilt from the events, repaired where a crash cut it. */
  messages: Message[];
  /** Human-readable warnings (corrupt lines, repairs), each naming the file. */
  warnings: string[];
}

export class SessionFormatError extends Error {}

/**
 * Reads a session file. Corrupt lines are skipped with a warning; a newer format is refused.
 * The file is read as a stream of lines, each bounded (`maxLineBytes`): a line over the limit is
 * skipped with a warning naming the file and line, so no record can make loading fail outright.
 */
export async function loadSession(file: string, options: ReadLinesOptions = {}): Promise<LoadedSession> {
  const warnings: string[] = [];
  let header: SessionHeader | undefined;
  const events: AgentEvent[] = [];
  // A line that is not JSON is expected last (a write torn by a crash); said so once we know.
  let lastLine = 0;
  let badJson: { line: number; warning: number } | undefined;
  for await (const line of readSessionLines(file, options)) {
    lastLine = line.number;
    const where = `${file}:${line.number}`;
    if ('tooLong' in line) {
      const limit = options.maxLineBytes ?? MAX_SESSION_LINE_BYTES;
      warnings.push(`${where}: skipped a line of ${line.tooLong} bytes, over the ${limit}-byte limit for one record`);
      continue;
    }
    if (line.text.trim() === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line.text);
    } catch {
      badJson = { line: line.number, warning: warnings.length };
      warnings.push(`${where}: skipped a line that is not valid JSON`);
      continue;
    }
    if (!header) {
      const h = raw as Partial<SessionHeader>;
      if (h.type !== 'session_header') throw new SessionFormatError(`${where}: not a cairn session file (no header)`);
      if (typeof h.version !== 'number' || h.version > SESSION_FORMAT_VERSION) {
        throw new SessionFormatError(`${file}: written by a newer cairn (format ${String(h.version)}, this cairn reads up to ${SESSION_FORMAT_VERSION}); upgrade cairn to open it`);
      }
      header = h as SessionHeader;
      continue;
    }
    const parsed = AgentEventSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      warnings.push(`${where}: skipped an invalid record (${issue ? `${issue.path.join('.') || 'type'}: ${issue.message}` : 'unknown'})`);
      continue;
    }
    events.push(parsed.data);
  }
  if (badJson && badJson.line === lastLine) warnings[badJson.warning] += ' (cut off by a crash?)';
  if (!header) throw new SessionFormatError(`${file}: empty session file`);
  const { messages, repairs } = rebuildMessages(events);
  for (const r of repairs) warnings.push(`${file}: ${r}`);
  return { header, events, messages, warnings };
}

/**
 * Folds persisted events back into the conversation. Tool results are gathered per assistant
 * message and put in its call order; calls with no result (the process died mid-tool) get a
 * placeholder, and each such repair is reported.
 */
export function rebuildMessages(events: readonly AgentEvent[]): { messages: Message[]; repairs: string[] } {
  let messages: Message[] = [];
  const repairs: string[] = [];
  let pending: { calls: { id: string; name: string }[]; results: Map<string, ToolResultBlock> } | undefined;

  const flush = (): void => {
    if (!pending) return;
    const results = pending.calls.map((call) => {
      const found = pending!.results.get(call.id);
      if (found) return found;
      repairs.push(`tool call ${call.name} (${call.id}) had no result; added a placeholder`);
      return { type: 'tool_result' as const, tool_use_id: call.id, content: INTERRUPTED_RESULT, is_error: true };
    });
    messages.push({ role: 'user', content: results });
    pending = undefined;
  };

  for (const event of events) {
    switch (event.type) {
      case 'user_prompt':
        flush();
        messages.push(userText(event.text));
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
          content: event.content,
          ...(event.is_error ? { is_error: true } : {}),
        });
        break;
      case 'compact':
        flush();
        messages = [...event.messages];
        break;
      case 'clear':
        // /clear: what came before is not carried on; a call cut off by it needs no placeholder.
        pending = undefined;
        messages = [];
        break;
      default:
        break;
    }
  }
  flush();
  return { messages, repairs };
}
