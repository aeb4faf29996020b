// The session's hooks: loaded from every settings file and .hooks.json, run by the session's loops
// (injected, never global), SessionStart at start (its text reaches the first prompt) and
// SessionEnd on the way out (awaited, within Claude Code's 1.5 s budget).
import { hookEvents } from '../hooks/hook-events.js';
import { createHookRunner } from '../hooks/hook-runner.js';
import { createHookSet, type HookSet } from '../hooks/hook-set.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { AgentEvent } from '../events.js';
import type { ModelProvider } from '../providers/provider.js';
import { errorMessage } from '../util/error-message.js';
import { stripTerminalControls } from '../util/terminal-text.js';

export interface SessionHooks {
  set: HookSet;
  runner: HookRunner;
  /** Runs SessionStart hooks; their events go to `emit`, their text waits for the next prompt. */
  start(source: 'startup' | 'resume', emit: (event: AgentEvent) => void): Promise<void>;
  /**
   * Runs SessionEnd hooks once (a second call gets the first's promise), all within
   * SESSION_END_BUDGET_MS: a hook still running then is killed with its process group.
   */
  end(reason: string, emit: (event: AgentEvent) => void): Promise<void>;
}

/** A hook event (or a notice) as one line for the user outside the TUI (start-up, exit). */
export function hookLine(event: AgentEvent): string {
  // What a hook printed goes to the user's terminal (stderr on the way out): never its escapes.
  if (event.type === 'hook') return stripTerminalControls(`${event.hook_event} hook ${event.outcome}: ${event.text} (${event.source})`);
  return event.type === 'notice' ? stripTerminalControls(event.message) : event.type;
}

/** Claude Code's shared budget for SessionEnd hooks: leaving waits this long at most. */
export const SESSION_END_BUDGET_MS = 1_500;

export interface HookWiringOptions {
  cwd: string;
  cairnHome: string;
  claudeHome: string;
  env: NodeJS.ProcessEnv;
  /** Whether the folder's own hooks may run (its settings files and .hooks.json). */
  trusted: () => boolean | Promise<boolean>;
  sessionId: string;
  transcriptPath: () => string | undefined;
  permissionMode: () => string;
  /** The model prompt hooks ask (see prompt-hook.ts). */
  model?: (name?: string) => ModelProvider | undefined;
}

export async function setUpHooks(opts: HookWiringOptions): Promise<SessionHooks> {
  const set = await createHookSet({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome, trusted: opts.trusted, env: opts.env });
  const pending: string[] = [];
  const base = createHookRunner({
    hooks: () => set.active(),
    cwd: opts.cwd,
    env: opts.env,
    sessionId: opts.sessionId,
    transcriptPath: opts.transcriptPath,
    permissionMode: opts.permissionMode,
    ...(opts.model ? { model: opts.model } : {}),
  });
  const runner: HookRunner = { ...base, takeContext: () => pending.splice(0, pending.length) };
  let ended: Promise<void> | undefined;
  const runAndShow = async (input: Parameters<HookRunner['run']>[0], emit: (event: AgentEvent) => void, signal?: AbortSignal): Promise<void> => {
    try {
      const run = await base.run(input, signal);
      for (const event of hookEvents(run)) emit(event);
      for (const o of run.outcomes) if (o.context !== undefined) pending.push(`${input.event} hook (${o.hook.source}): ${o.context}`);
    } catch (error) {
      emit({ type: 'notice', level: 'warning', message: `${input.event} hooks failed: ${errorMessage(error)}` });
    }
  };
  return {
    set,
    runner,
    start: (source, emit) => runAndShow({ event: 'SessionStart', source }, emit),
    end: (reason, emit) => {
      ended ??= (async () => {
        const budget = new AbortController();
        const timer = setTimeout(() => budget.abort(), SESSION_END_BUDGET_MS);
        try {
          // A hook the budget stopped says so, rather than the runner's bare "was stopped".
          const said = (e: AgentEvent): void =>
            emit(e.type === 'hook' && e.outcome === 'error' && budget.signal.aborted ? { ...e, text: `${e.text.replace(/: was stopped before it finished$/, '')}: still running after the ${SESSION_END_BUDGET_MS / 1000} s SessionEnd budget, stopped` } : e);
          await runAndShow({ event: 'SessionEnd', source: reason }, said, budget.signal);
        } finally {
          clearTimeout(timer);
        }
      })();
      return ended;
    },
  };
}
