import { readFile } from 'node:fs/promises';
import type { AgentEvent } from '../../src/events.js';
import { AgentEventSchema } from '../../src/events.js';
import { isClaudeCodeEnvelope } from '../../src/headless-result.js';
import { sleep } from '../../src/util/abort.js';
import type { TuiStore } from './create-store.js';

/** Gap between events of a recording without `ts` fields. */
export const DEFAULT_REPLAY_GAP_MS = 15;
// A long pause in a recording (the user thinking) is not worth waiting for again.
const MAX_GAP_MS = 2000;

export interface RecordedEvent {
  event: AgentEvent;
  ts?: number;
}

/**
 * Parses a recording: `-p --output-format stream-json` output, or one of cairn's own session
 * files (their lines are the same events, under a session_header line). A bad line throws an
 * error naming the file and line.
 */
export function parseRecording(text: string, file: string): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      throw new Error(`${file}:${i + 1}: not JSON (${(error as Error).message})`, { cause: error });
    }
    if ((json as { type?: unknown } | null)?.type === 'session_header' || isClaudeCodeEnvelope(json)) return;
    const parsed = AgentEventSchema.safeParse(json);
    if (!parsed.success) {
      const type = (json as { type?: unknown } | null)?.type;
      throw new Error(`${file}:${i + 1}: not an AgentEvent (type ${JSON.stringify(type)}): ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    const ts = (json as { ts?: unknown }).ts;
    out.push(typeof ts === 'number' ? { event: parsed.data, ts } : { event: parsed.data });
  });
  return out;
}

export interface ReplayOptions {
  /** 2 = twice as fast. Default 1. */
  speed?: number;
  signal?: AbortSignal;
}

/** Feeds a recorded session into the store at its recorded pace (or `speed` times it). */
export async function replayEvents(file: string, store: TuiStore, options: ReplayOptions = {}): Promise<number> {
  const speed = options.speed && options.speed > 0 ? options.speed : 1;
  const events = parseRecording(await readFile(file, 'utf8'), file);
  let prevTs: number | undefined;
  for (const { event, ts } of events) {
    const gap = ts !== undefined && prevTs !== undefined ? Math.min(MAX_GAP_MS, Math.max(0, ts - prevTs)) : prevTs === undefined && ts !== undefined ? 0 : DEFAULT_REPLAY_GAP_MS;
    if (ts !== undefined) prevTs = ts;
    const wait = gap / speed;
    if (wait >= 1) await sleep(wait, options.signal);
    else if (options.signal?.aborted) break;
    store.enqueue(event);
  }
  store.flushNow();
  return events.length;
}
