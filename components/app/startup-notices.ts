// What a session's transcript opens with, in order: a resumed session's recorded events and the
// "Resumed session" line, the runtime's start-up problems, then the offline model's hint. The
// store gets these before the first frame, and the early first frame (early-frame.ts) folds the
// same actions, so both show the same rows.
import type { AgentEvent } from '../../src/events.js';
import type { UiAction } from '../store/types.js';

export const OFFLINE_NOTICE = 'No provider configured: using the offline scripted model. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, or see cairn --list-providers.';

export interface OpeningInput {
  resumedEvents?: readonly AgentEvent[] | undefined;
  sessionId?: string | undefined;
  startupNotices?: readonly string[] | undefined;
  /** /fork, --fork-session: the session this one was copied from. */
  forkedFrom?: string | undefined;
}

/** What the opening rows say about the session: whether it runs on the offline model, how many messages it resumed. */
export interface OpeningSession {
  offline: boolean;
  /** Unknown on a first frame drawn from the file's end before the whole session is read. */
  messageCount?: number;
}

export function openingActions(input: OpeningInput, session: OpeningSession, at: number): UiAction[] {
  const out: UiAction[] = [];
  if (input.resumedEvents) {
    out.push({ type: 'recorded', events: input.resumedEvents, at });
    const count = session.messageCount;
    const id = input.sessionId ? ` ${input.sessionId.slice(0, 8)}` : '';
    const size = count === undefined ? '' : ` (${count} message${count === 1 ? '' : 's'})`;
    const what = input.forkedFrom !== undefined ? `Forked from session ${input.forkedFrom} (that session is unchanged); this is session${id}${size}.` : `Resumed session${id}${size}.`;
    out.push({ type: 'notice', level: 'info', message: what });
  }
  for (const message of input.startupNotices ?? []) out.push({ type: 'notice', level: 'warning', message });
  if (session.offline) out.push({ type: 'notice', level: 'warning', message: OFFLINE_NOTICE });
  return out;
}
