import type { AgentEvent, EventOf } from '../../src/events.js';
import { attachmentLabel } from '../../src/attachments/attachment-label.js';
import { reduceBackgroundShell, reduceShellWatch, reduceCron } from './background-state.js';
import { reduceBackgroundAgent } from './reduce-background-agent.js';
import { reduceCompact } from './reduce-compact.js';
import { reduceHook } from './reduce-hook.js';
import { reduceRewind } from './reduce-rewind.js';
import { reduceShellCommand } from './reduce-shell.js';
import { reduceSubagent } from './reduce-subagent.js';
import { applyToolEvent, newToolCard, withStatus } from './tool-card.js';
import { push, updateTool } from './items.js';
import type { PermissionRequest, ToolItem, TranscriptItem, TuiState } from './types.js';
import type { CallView } from '../../src/tools/call-view.js';

// How each engine event changes the state. Pure: time comes in as `at`, ids from state.nextId.

export function reduceEvent(state: TuiState, event: AgentEvent, at: number): TuiState {
  switch (event.type) {
    case 'session_start':
      return {
        ...state,
        info: {
          model: event.model,
          provider: event.provider,
          cwd: event.cwd,
          mode: event.permission_mode,
          startedInBypass: event.permission_mode === 'bypassPermissions',
          offline: event.offline,
          ...(event.max_budget_usd !== undefined ? { maxBudgetUsd: event.max_budget_usd } : {}),
        },
        // The context bar's limit follows the model (/model); an event without one leaves it.
        ...(event.context_window !== undefined ? { contextLimit: event.context_window } : {}),
      };
    case 'user_prompt': {
      const queued = state.queued[0] === event.text ? state.queued.slice(1) : state.queued;
      const attachments = event.attachments?.map((a) => attachmentLabel(a));
      const s = push(state, (id) => ({ kind: 'user', id, text: event.text, ...(attachments?.length ? { attachments } : {}) }));
      // The next prompt folds the pinned plan to its title line: it has been read by now.
      const plan = state.plan?.expanded ? { ...state.plan, expanded: false } : state.plan;
      return { ...s, queued, busy: true, phase: { kind: 'waiting', since: at }, ...(plan ? { plan } : {}) };
    }
    case 'turn_start':
      return { ...state, busy: true, phase: { kind: 'waiting', since: at } };
    case 'text_delta':
      return appendStream(withPhase(state, 'responding', at), 'assistant', event.text);
    case 'thinking_delta':
      return appendStream(withPhase(state, 'thinking', at), 'thinking', event.text);
    case 'assistant':
      return finishAssistant(state, event);
    case 'tool_start': {
      // The card gets an id of its own (like every item): providers may reuse tool_use ids.
      return push(withPhase(state, 'tools', at), (id) => newToolCard(id, event, at));
    }
    case 'tool_progress':
    case 'tool_result':
      return updateTool(state, event.id, (t) => applyToolEvent(t, event));
    case 'permission_request': {
      // Asks come one at a time: an earlier card still waiting without a queued ask was answered yes.
      const answered = state.items.map((i) => (i.kind === 'tool' && !state.approvals.some((a) => a.cardId === i.id) ? withStatus(i, { type: 'run' }) : i));
      const s = updateTool({ ...state, items: answered }, event.id, (t) => applyToolEvent(t, event));
      // The approval goes under the card that asks: the newest with this tool_use id.
      const card = findTool(s, event.id);
      const request = card ? { ...event, cardId: card.id } : event;
      const first = s.approvals.length === 0;
      return { ...s, approvals: [...s.approvals, request], ...(first ? { approval: { choice: 0, denyText: '' } } : {}) };
    }
    case 'permission_denied': {
      const s = updateTool(state, event.id, (t) => applyToolEvent(t, event));
      return dropApproval(s, event.id);
    }
    case 'usage':
      // Token accounting is its own slice (reduce-usage.ts), applied to every event in reduce().
      return state;
    case 'permission_decision':
      // The decision log: the card already shows the outcome; /permissions lists the log.
      return state;
    case 'notice': {
      // A retried request streams again from the start: the failed attempt's partial output goes.
      const base = event.code === 'retry' ? dropStreaming(state) : state;
      return push(base, (id) => ({
        kind: 'notice',
        id,
        level: event.level,
        message: event.message,
        ...(event.code !== undefined ? { code: event.code } : {}),
      }));
    }
    case 'mode_change':
      return { ...state, info: { ...state.info, mode: event.mode } };
    case 'clear':
      // A new conversation: nothing of the old one stays on screen or waits (usage totals stay).
      return {
        ...state,
        items: [],
        busy: false,
        phase: undefined,
        approvals: [],
        approval: { choice: 0, denyText: '' },
        queued: [],
        selectedId: undefined,
        focus: 'editor',
        scroll: { follow: true },
        todos: [],
        plan: undefined,
      };
    case 'compact':
      return reduceCompact(state, event);
    case 'rewind':
      return reduceRewind(state, event);
    case 'cron':
      return reduceCron(state, event, at);
    case 'subagent':
      return reduceSubagent(state, event, at, reduceEvent);
    case 'todos':
      return { ...state, todos: event.todos };
    case 'plan_approved':
      return { ...state, plan: { text: event.plan, ...(event.mode !== undefined ? { mode: event.mode } : {}), expanded: true } };
    case 'background_shell':
      return reduceBackgroundShell(state, event, at);
    case 'shell_watch':
      return reduceShellWatch(state, event);
    case 'background_agent':
      return reduceBackgroundAgent(state, event, at);
    case 'mcp_servers':
      return { ...state, mcpServers: event.servers.map(({ name, state: serverState }) => ({ name, state: serverState })) };
    case 'team':
      return reduceTeam(state, event, at);
    case 'terminal':
      return finishTurn(state, event);
    case 'hook':
      return reduceHook(state, event, at, reduceEvent);
    case 'auto_run':
      return reduceAutoRun(state, event, at);
    case 'shell_command':
      return reduceShellCommand(state, event, at);
  }
}

/** A card for work no tool call started (a cron auto run, a teammate's stretch) is titled as an agent call is. */
const agentView = (input: { type: string; description: string }): CallView => ({ title: `${input.type}: ${input.description}`, subject: { kind: 'input' } });

/** A cron auto run's card: opened when it starts (no turn, so no phase), finished by its outcome. */
function reduceAutoRun(state: TuiState, event: EventOf<'auto_run'>, at: number): TuiState {
  if (event.status === 'started') {
    const input = { type: 'general', task: event.prompt, description: `scheduled task ${event.task_id}` };
    const start: EventOf<'tool_start'> = { type: 'tool_start', id: event.run_id, name: 'agent', input, parallel: false, batch: -1, view: agentView(input) };
    return push(state, (id) => ({ ...newToolCard(id, start, at), background: true }));
  }
  if (event.status === 'cancelled') return updateTool(state, event.run_id, (t) => withStatus(t, { type: 'interrupt' }));
  const result: EventOf<'tool_result'> = {
    type: 'tool_result',
    id: event.run_id,
    name: 'agent',
    content: event.result ?? '',
    is_error: event.status === 'failed',
    duration_ms: event.duration_ms ?? 0,
  };
  return updateTool(state, event.run_id, (t) => applyToolEvent(t, result));
}

function reduceTeam(state: TuiState, event: EventOf<'team'>, at: number): TuiState {
  const s = event.run_id !== undefined ? reduceTeammateRun(state, event, event.run_id, at) : state;
  const message =
    event.kind === 'message'
      ? `✉ ${event.from ?? event.name}: ${event.text ?? ''}`
      : event.kind === 'spawned'
        ? `Teammate ${event.name} started.`
        : event.status === 'stopped'
          ? `Teammate ${event.name} stopped.`
          : undefined;
  if (!message) return s;
  return push(s, (id) => ({ kind: 'notice', id, level: 'info', message }));
}

/**
 * A teammate's stretch of work is a card of its own, like a cron auto run's: opened when it starts
 * working, its loop's events nested in it (they arrive wrapped with parent_id = run_id), closed
 * with its last reply when it goes idle, or as interrupted when it is stopped mid-way.
 */
function reduceTeammateRun(state: TuiState, event: EventOf<'team'>, runId: string, at: number): TuiState {
  if (event.status === 'working') {
    const task = event.text ?? '';
    const input = { type: `${event.name} (${event.agent_type ?? 'teammate'})`, task, description: task.split('\n')[0] ?? '' };
    const start: EventOf<'tool_start'> = { type: 'tool_start', id: runId, name: 'agent', input, parallel: false, batch: -1, view: agentView(input) };
    return push(state, (id) => ({ ...newToolCard(id, start, at), background: true }));
  }
  if (event.status === 'stopped') return updateTool(state, runId, (t) => withStatus(t, { type: 'interrupt' }));
  const card = state.items.find((i) => i.kind === 'tool' && i.toolUseId === runId);
  const duration = card?.kind === 'tool' ? Math.max(0, at - card.startedAt) : 0;
  const result: EventOf<'tool_result'> = { type: 'tool_result', id: runId, name: 'agent', content: event.text ?? '', is_error: event.failed === true, duration_ms: duration };
  return updateTool(state, runId, (t) => applyToolEvent(t, result));
}


function withPhase(state: TuiState, kind: 'thinking' | 'responding' | 'tools', at: number): TuiState {
  if (state.phase?.kind === kind) return state;
  return { ...state, busy: true, phase: { kind, since: at } };
}

function appendStream(state: TuiState, kind: 'assistant' | 'thinking', text: string): TuiState {
  // A notice that arrived mid-stream (a mode change, a warning) stays below the text, which goes
  // on growing in one piece instead of being cut at the notice.
  let at = state.items.length - 1;
  while (state.items[at]?.kind === 'notice') at--;
  const last = state.items[at];
  if (last && last.kind === kind && last.streaming) {
    const items = state.items.slice();
    items[at] = { ...last, text: last.text + text };
    return { ...state, items };
  }
  return push(state, (id) => ({ kind, id, text, streaming: true }));
}

/** The final message is authoritative: it replaces the streamed text (or adds it if nothing streamed). */
function finishAssistant(state: TuiState, event: EventOf<'assistant'>): TuiState {
  const text = event.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const thinking = event.message.content.flatMap((b) => (b.type === 'thinking' ? [b.thinking] : [])).join('');
  let s = state;
  const streamed = { assistant: false, thinking: false };
  const items = s.items.map((item) => {
    if ((item.kind === 'assistant' || item.kind === 'thinking') && item.streaming) {
      streamed[item.kind] = true;
      const final = item.kind === 'assistant' ? text : thinking;
      return { ...item, streaming: false, text: final || item.text };
    }
    return item;
  });
  s = { ...s, items };
  if (!streamed.thinking && thinking.trim() !== '') s = push(s, (id) => ({ kind: 'thinking', id, text: thinking, streaming: false }));
  if (!streamed.assistant && text.trim() !== '') s = push(s, (id) => ({ kind: 'assistant', id, text, streaming: false }));
  return s;
}

function dropStreaming(state: TuiState): TuiState {
  const items = state.items.filter((i) => !((i.kind === 'assistant' || i.kind === 'thinking') && i.streaming));
  return items.length === state.items.length ? state : { ...state, items };
}

/** The newest card of this tool_use id: a reused id belongs to the latest call. */
function findTool(state: TuiState, toolUseId: string): ToolItem | undefined {
  return state.items.findLast((item): item is ToolItem => item.kind === 'tool' && item.toolUseId === toolUseId);
}

/** Changes the newest card of this tool_use id (engine events name calls by it). */

/** An ask's own id (request_id); a request without one (an older recording) goes by its tool_use id. */
export const askKey = (request: PermissionRequest): string => request.request_id ?? request.id;

/** Drops the approval of this ask (by askKey) once it is answered. */
export function dropAnswered(state: TuiState, key: string): TuiState {
  const approvals = state.approvals.filter((a) => askKey(a) !== key);
  if (approvals.length === state.approvals.length) return state;
  const headChanged = state.approvals[0] !== undefined && askKey(state.approvals[0]) === key;
  return { ...state, approvals, ...(headChanged ? { approval: { choice: 0, denyText: '' } } : {}) };
}

export function dropApproval(state: TuiState, id: string): TuiState {
  const head = state.approvals[0];
  const approvals = state.approvals.filter((a) => a.id !== id);
  if (approvals.length === state.approvals.length) return state;
  const headChanged = head?.id === id;
  return { ...state, approvals, ...(headChanged ? { approval: { choice: 0, denyText: '' } } : {}) };
}

function finishTurn(state: TuiState, event: EventOf<'terminal'>): TuiState {
  const items = state.items.map((item): TranscriptItem => {
    if ((item.kind === 'assistant' || item.kind === 'thinking') && item.streaming) return { ...item, streaming: false };
    if (item.kind === 'tool' && !item.background) return withStatus(item, { type: 'interrupt' });
    return item;
  });
  let s: TuiState = { ...state, items, busy: false, phase: undefined, approvals: [], approval: { choice: 0, denyText: '' } };
  if (event.reason !== 'completed') {
    const reason = event.reason;
    s = push(s, (id) => ({ kind: 'terminal', id, reason, ...(event.error !== undefined ? { error: event.error } : {}) }));
  }
  return s;
}
