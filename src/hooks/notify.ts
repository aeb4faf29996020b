// Notification hooks, Claude Code's `Notification` event: run when cairn asks the user for
// permission (`permission_prompt`) and when a turn ends with nothing left to do (`idle_prompt`).
// They only tell: they are started and not awaited, so a slow notifier never holds up the prompt
// it announces; what they print or how they fail reaches the user as hook events.
import type { AgentEvent } from '../events.js';
import { errorMessage } from '../util/error-message.js';
import { hookEvents } from './hook-events.js';
import type { HookRunner } from './hook-types.js';

export type NotificationType = 'permission_prompt' | 'idle_prompt';

export const PERMISSION_MESSAGE = (tool: string): string => `cairn needs your permission to use ${tool}`;
export const IDLE_MESSAGE = 'cairn is waiting for your input';

/** Starts the Notification hooks matching `type`; returns their run so a caller may wait (tests do). */
export function notifyHooks(hooks: HookRunner | undefined, type: NotificationType, message: string, emit: (event: AgentEvent) => void): Promise<void> {
  if (!hooks?.has('Notification', type)) return Promise.resolve();
  return hooks.run({ event: 'Notification', source: type, message }).then(
    (run) => {
      for (const event of hookEvents(run)) emit(event);
    },
    (error: unknown) => emit({ type: 'notice', level: 'warning', message: `Notification hooks failed: ${errorMessage(error)}` }),
  );
}
