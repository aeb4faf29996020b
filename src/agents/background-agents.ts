import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import type { AgentEvent, EventOf } from '../events.js';
import { notice } from '../events.js';
import type { ToolResult } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';

// Subagents the lead started with `run_in_background` (issue 38 item 2): each runs on its own
// AbortController, outside any turn; its events go to the session wrapped with parent_id = its id
// (its own card), and its report waits here until the lead's next request (or starts a turn when
// the lead is idle: background-work.ts decides).

export type BackgroundAgentStatus = EventOf<'background_agent'>['status'];

export interface BackgroundAgentInfo {
  id: string;
  agentType: string;
  description: string;
  status: BackgroundAgentStatus;
  startedAt: number;
  endedAt?: number;
  /** Model requests made so far. */
  turns: number;
  /** Its last tool call's name, for /agents. */
  lastTool?: string;
}

export interface BackgroundAgentStart {
  agentType: string;
  description: string;
  task: string;
  /** Runs the subagent to its end; events it emits go to its card. Must not throw (a throw is reported as a crash). */
  run(signal: AbortSignal, emit: (event: AgentEvent) => void, id: string): Promise<ToolResult>;
}

export interface BackgroundAgents {
  /** Starts one; returns its id at once. */
  start(spec: BackgroundAgentStart): string;
  list(): BackgroundAgentInfo[];
  /** Stops a running one; false when unknown or already ended. */
  stop(id: string): boolean;
  stopAll(): number;
  /** The reports that have not reached the model yet, one note each; emptied. */
  drainResults(): string[];
  /** How many reports wait. */
  readonly pending: number;
  /** Called after each agent ends and its report is queued. */
  onSettled(listener: () => void): void;
}

/** The note the model gets for an ended agent. */
export function backgroundResultNote(info: BackgroundAgentInfo, result: ToolResult): string {
  const how = info.status === 'completed' ? 'finished' : info.status === 'stopped' ? 'was stopped by the user' : 'failed';
  return `<background-agent id="${info.id}" type="${info.agentType}" status="${info.status}">\nThe background agent ${info.id} (${info.description}) ${how}. Its report:\n${result.content}\n</background-agent>`;
}

export function createBackgroundAgents(opts: { emit: (event: AgentEvent) => void; clock?: Clock }): BackgroundAgents {
  const clock = opts.clock ?? systemClock;
  const agents = new Map<string, { info: BackgroundAgentInfo; controller: AbortController }>();
  const results: string[] = [];
  const listeners: Array<() => void> = [];
  let seq = 0;

  const settle = (id: string, status: BackgroundAgentStatus, result: ToolResult): void => {
    const entry = agents.get(id);
    if (!entry || entry.info.status !== 'running') return;
    const endedAt = clock.now();
    entry.info.status = status;
    entry.info.endedAt = endedAt;
    results.push(backgroundResultNote(entry.info, result));
    const { info } = entry;
    opts.emit({
      type: 'background_agent',
      id,
      agent_type: info.agentType,
      description: info.description,
      status,
      result: result.content,
      duration_ms: endedAt - info.startedAt,
    });
    for (const listener of listeners) listener();
  };

  return {
    start(spec) {
      const id = `agent_${++seq}`;
      const controller = new AbortController();
      const info: BackgroundAgentInfo = { id, agentType: spec.agentType, description: spec.description, status: 'running', startedAt: clock.now(), turns: 0 };
      agents.set(id, { info, controller });
      opts.emit({ type: 'background_agent', id, agent_type: spec.agentType, description: spec.description, task: spec.task, status: 'running' });
      const emit = (event: AgentEvent): void => {
        // Progress for /agents, read from its own loop's events (one level down).
        const inner = event.type === 'subagent' && event.parent_id === id ? event.event : undefined;
        if (inner?.type === 'turn_start') info.turns = inner.turn;
        if (inner?.type === 'tool_start') info.lastTool = inner.name;
        opts.emit(event);
      };
      // Later than the caller's return: its tool result (the id) is told before the agent's first event.
      queueMicrotask(() => {
        spec.run(controller.signal, emit, id).then(
          (result) => settle(id, controller.signal.aborted ? 'stopped' : result.isError ? 'failed' : 'completed', result),
          (error: unknown) => {
            const message = `The background agent ${id} crashed: ${errorMessage(error)}`;
            opts.emit(notice('error', message));
            settle(id, 'failed', { content: message, isError: true });
          },
        );
      });
      return id;
    },
    list: () => [...agents.values()].map((a) => ({ ...a.info })),
    stop(id) {
      const entry = agents.get(id);
      if (!entry || entry.info.status !== 'running') return false;
      entry.controller.abort();
      return true;
    },
    stopAll() {
      let n = 0;
      for (const { info, controller } of agents.values()) {
        if (info.status !== 'running' || controller.signal.aborted) continue;
        controller.abort();
        n++;
      }
      return n;
    },
    drainResults: () => results.splice(0),
    get pending() {
      return results.length;
    },
    onSettled(listener) {
      listeners.push(listener);
    },
  };
}
