import type { EventOf } from '../../src/events.js';
import { shellCommandOf } from '../prompt/shell-prompt.js';
import { push, updateTool } from './items.js';
import type { TuiState } from './types.js';

/** The card's tool name: `!` and the command, as the user typed it (the renderer is bash's). */
export const SHELL_CARD = '!';

/**
 * A `!` command: a card like a bash call's while it runs (busy, so Esc stops it and prompts
 * queue), then its output and exit status.
 */
export function reduceShellCommand(state: TuiState, event: EventOf<'shell_command'>, at: number): TuiState {
  if (event.status === 'running') {
    // A command typed while a turn ran leaves the queue as it starts (as a prompt's user_prompt does).
    const queued = state.queued[0] !== undefined && shellCommandOf(state.queued[0]) === event.command ? state.queued.slice(1) : state.queued;
    const s = push({ ...state, queued }, (id) => ({
      kind: 'tool',
      id,
      toolUseId: event.id,
      name: SHELL_CARD,
      input: { command: event.command },
      parallel: false,
      batch: 0,
      status: 'running',
      startedAt: at,
      progress: '',
    }));
    return { ...s, busy: true, phase: { kind: 'tools', since: at } };
  }
  const failed = event.problem !== undefined || (event.exit_code ?? 0) !== 0;
  const output = event.output ?? '';
  const status = event.problem ?? (event.exit_code ? `exit code ${event.exit_code}` : '');
  const result = failed ? [output.replace(/\n+$/, ''), status].filter((p) => p !== '').join('\n') : output;
  const s = updateTool(state, event.id, (card) => ({
    ...card,
    status: event.problem === 'interrupted' ? 'interrupted' : failed ? 'error' : 'success',
    result: result === '' ? '(no output)' : result,
    durationMs: event.duration_ms ?? at - card.startedAt,
  }));
  return { ...s, busy: false, phase: undefined };
}
