import { notice } from '../events.js';
import type { AgentSession } from '../session/agent-session.js';
import { sessionFile } from '../session/session-paths.js';
import { SessionWriter } from '../session/session-writer.js';
import type { TeamMessage } from '../team/message-bus.js';
import type { TodoList } from '../todos/todo-list.js';
import type { AnyTool } from '../tools/tool.js';
import type { BackgroundWork } from './background-work.js';
import { createUsageLog } from './usage-log.js';

// What listens to the lead session once it exists: the todo list, the usage log, the session
// file, and the scheduler's auto runs.

/** The todo list follows the conversation; each model call's usage goes to usage.jsonl. */
export function followSession(live: AgentSession, deps: { todos: TodoList; cairnHome: string; sessionId: string; now: () => Date }): void {
  live.subscribe((event) => {
    if (event.type === 'turn_start') deps.todos.tick();
    // /clear: the todo list belongs to the conversation, and so does its reminder.
    if (event.type === 'clear') deps.todos.replace([]);
  });
  live.subscribe(
    createUsageLog(deps.cairnHome, () => ({ session: deps.sessionId, provider: live.providerName, model: live.model }), deps.now, (m) => live.emit(notice('warning', m))),
  );
}

/**
 * Fired prompts go to the session; auto runs start the agent tool in the background with the
 * run's own signal, and Esc stops them along with the turn.
 */
export function connectScheduledRuns(live: AgentSession, background: BackgroundWork, agentTool: AnyTool | undefined, cwd: string): void {
  background.attach({
    get busy() {
      return live.busy;
    },
    run: (prompt) => live.run(prompt),
    emit: (event) => live.emit(event),
    async runInBackground(prompt, signal, runId) {
      if (!agentTool) throw new Error('no agent tool');
      const result = await agentTool.call(
        { type: 'general', task: prompt, description: 'scheduled task' },
        { cwd, signal, toolUseId: runId, emit: (e) => live.emit(e) },
      );
      return result.content;
    },
  });
  live.onInterrupt(() => background.cancelAutoRuns());
}

/** Records every event to the session file: a new one, or the resumed one continued. */
export function recordSession(
  live: AgentSession,
  opts: { cairnHome: string; cwd: string; sessionId: string; resumeFile?: string; now: () => Date },
): SessionWriter {
  const writer = opts.resumeFile
    ? SessionWriter.resume(opts.resumeFile)
    : SessionWriter.create(sessionFile(opts.cairnHome, opts.cwd, opts.sessionId), { id: opts.sessionId, cwd: opts.cwd, created: opts.now().toISOString() });
  live.subscribe((event) => writer.append(event));
  return writer;
}

/** New messages for the lead, as a note before its next turn. */
export function leadMail(mail: readonly TeamMessage[]): string[] {
  if (mail.length === 0) return [];
  return [`<team-messages>\n${mail.map((m) => `- from ${m.from}: ${m.text}`).join('\n')}\n</team-messages>`];
}
