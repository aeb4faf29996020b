// The session's hooks: loaded from every settings file and .hooks.json, run by the session's loops
// (injected, never global), SessionStart at start (its text reaches the first prompt) and
// SessionEnd at close.
import { hookEvents } from '../hooks/hook-events.js';
import { createHookRunner } from '../hooks/hook-runner.js';
import { createHookSet, type HookSet } from '../hooks/hook-set.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { AgentEvent } from '../events.js';
import { errorMessage } from '../util/error-message.js';

export interface SessionHooks {
  set: HookSet;
  runner: HookRunner;
  /** Runs SessionStart hooks; their events go to `emit`, their text waits for the next prompt. */
  start(source: 'startup' | 'resume', emit: (event: AgentEvent) => void): Promise<void>;
  /** Runs SessionEnd hooks, each with at most its own timeout. */
  end(reason: string, emit: (event: AgentEvent) => void): Promise<void>;
}

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
}

export async function setUpHooks(opts: HookWiringOptions): Promise<SessionHooks> {
  const set = await createHookSet({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome, trusted: opts.trusted });
  const pending: string[] = [];
  const base = createHookRunner({
    hooks: () => set.active(),
    cwd: opts.cwd,
    env: opts.env,
    sessionId: opts.sessionId,
    transcriptPath: opts.transcriptPath,
    permissionMode: opts.permissionMode,
  });
  const runner: HookRunner = { ...base, takeContext: () => pending.splice(0, pending.length) };
  const runAndShow = async (input: Parameters<HookRunner['run']>[0], emit: (event: AgentEvent) => void): Promise<void> => {
    try {
      const run = await base.run(input);
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
    end: (reason, emit) => runAndShow({ event: 'SessionEnd', source: reason }, emit),
  };
}
