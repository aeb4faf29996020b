import type { EventOf, NoticeLevel } from '../../src/events.js';
import type { BackgroundAction, Toast } from './background-types.js';
import { push } from './items.js';
import { shellWatchNotice } from '../../src/shells/watch-notice.js';
import type { TuiState } from './types.js';

export type { BackgroundAction, BackgroundCounts, CronItem, Toast } from './background-types.js';

// Work outside a turn (cron tasks, background shells) and the todo list: their slices of the state.

export const TOAST_MS = 5000;
const TOASTS_KEPT = 3;

/** Whether a cron event is worth a card: what happened without the user asking for it. */
function cronShown(event: EventOf<'cron'>): boolean {
  switch (event.status) {
    case 'fired':
    case 'missed':
    case 'auto_run_finished':
      return true;
    case 'deleted':
      return event.result?.startsWith('expired') === true;
    case 'created':
      return false;
  }
}

export function cronStatusText(status: EventOf<'cron'>['status']): string {
  switch (status) {
    case 'created':
      return 'scheduled';
    case 'deleted':
      return 'deleted';
    case 'fired':
      return 'fired';
    case 'missed':
      return 'missed';
    case 'auto_run_finished':
      return 'auto-run finished';
  }
}

export function reduceCron(state: TuiState, event: EventOf<'cron'>, at: number): TuiState {
  // A deleted task's "fired" toast would point at something that no longer exists.
  const current = event.status === 'deleted' ? dropToasts(state, (t) => t.taskId === event.task_id) : state;
  if (!cronShown(event)) return current;
  const s = push(current, (id) => ({
    kind: 'cron',
    id,
    taskId: event.task_id,
    schedule: event.schedule,
    prompt: event.prompt,
    status: event.status,
    ...(event.result !== undefined ? { result: event.result } : {}),
  }));
  if (event.status === 'deleted') return s;
  const level: NoticeLevel = event.status === 'missed' ? 'warning' : 'info';
  return addToast(s, level, `⏰ ${cronStatusText(event.status)}: ${oneLine(event.prompt)}`, at, event.task_id);
}

export function reduceBackgroundShell(state: TuiState, event: EventOf<'background_shell'>, at: number): TuiState {
  if (event.status === 'running') return state;
  const exit = event.exit_code !== undefined ? ` (exit code ${event.exit_code})` : '';
  const level: NoticeLevel = event.status === 'failed' ? 'warning' : 'info';
  const message = `Background shell ${event.id} ${event.status}${exit}: ${oneLine(event.command)}`;
  const s = push(state, (id) => ({ kind: 'notice', id, level, message, code: 'background_shell' }));
  return addToast(s, level, `⚙ ${oneLine(event.command)} ${event.status}${exit}`, at);
}

/** A watched shell's news: a small notice per delivery, and one when the watch ends (its start is the monitor call's card). */
export function reduceShellWatch(state: TuiState, event: EventOf<'shell_watch'>): TuiState {
  if (event.status === 'watching') return state;
  const { text, warning } = shellWatchNotice(event);
  return push(state, (id) => ({ kind: 'notice', id, level: warning ? 'warning' : 'info', message: text, code: 'shell_watch' }));
}

export function reduceBackgroundAction(state: TuiState, action: BackgroundAction): TuiState {
  switch (action.type) {
    case 'background': {
      const { cron, shells } = action;
      return state.background.cron === cron && state.background.shells === shells ? state : { ...state, background: { cron, shells } };
    }
    case 'toastExpire':
      return dropToasts(state, (t) => action.now - t.at >= TOAST_MS || (action.cron === true && t.taskId !== undefined));
  }
}

function dropToasts(state: TuiState, gone: (toast: Toast) => boolean): TuiState {
  const toasts = state.toasts.filter((t) => !gone(t));
  return toasts.length === state.toasts.length ? state : { ...state, toasts };
}

export function addToast(state: TuiState, level: NoticeLevel, text: string, at: number, taskId?: string): TuiState {
  const toast: Toast = { id: `t${state.nextId}`, level, text, at, ...(taskId !== undefined ? { taskId } : {}) };
  return { ...state, nextId: state.nextId + 1, toasts: [...state.toasts.slice(-(TOASTS_KEPT - 1)), toast] };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
