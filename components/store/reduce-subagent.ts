import type { AgentEvent, EventOf } from '../../src/events.js';
import type { SubagentActivity } from './subagent-state.js';
import { mapToolDeep, nestedId } from './subagent-state.js';
import { applyToolEvent, newToolCard, withStatus } from './tool-card.js';
import type { PermissionRequest, ToolItem, TuiState } from './types.js';
import { itemAt } from '../../src/util/invariant.js';

// A subagent's events arrive wrapped once per level. They change the activity kept on the
// `agent` card that started the subagent (found by the chain of parent ids), never the top level,
// except for what belongs to the whole session: approvals, the todo list, cron and shell notices.

const TEXT_KEEP = 400;

type ReduceTop = (state: TuiState, event: AgentEvent, at: number) => TuiState;

interface Level {
  /** The qualified id of the `agent` card this level's events belong to. */
  cardId: string;
  agentType: string;
  depth: number;
}

/**
 * Unwraps an envelope: the cards from the outermost down, and the child's own event. `topCard`
 * maps the outermost tool_use id to its card's id (top-level cards have ids of cairn's own).
 */
export function unwrapSubagent(envelope: EventOf<'subagent'>, topCard: (toolUseId: string) => string = (id) => id): { levels: Level[]; event: AgentEvent } {
  const levels: Level[] = [];
  let event: AgentEvent = envelope;
  while (event.type === 'subagent') {
    const parent = levels[levels.length - 1];
    const cardId = parent ? nestedId(parent.cardId, event.parent_id) : topCard(event.parent_id);
    levels.push({ cardId, agentType: event.agent_type, depth: event.depth });
    event = event.event;
  }
  return { levels, event };
}

export function reduceSubagent(state: TuiState, envelope: EventOf<'subagent'>, at: number, reduceTop: ReduceTop): TuiState {
  const { levels, event } = unwrapSubagent(envelope, (toolUseId) => topCardId(state.items, toolUseId));
  switch (event.type) {
    case 'todos':
    case 'cron':
    case 'background_shell':
    case 'shell_watch':
    case 'mcp_servers':
    case 'team':
      return reduceTop(state, event, at);
    default:
      break;
  }
  const level = itemAt(levels, levels.length - 1, 'subagent level');
  // An interrupted child makes its card read "interrupted", not "failed", when its result comes.
  const interrupted = event.type === 'terminal' && event.reason === 'aborted';
  let items = mapToolDeep(state.items, level.cardId, (card) => ({
    ...(interrupted ? withStatus(card, { type: 'interrupt' }) : card),
    child: reduceActivity(card.child ?? newActivity(level, at), event, at, level.cardId),
  }));
  // No card: a subagent started outside a turn (a cron auto-run); its result arrives as a cron notice.
  if (items === state.items) return state;
  if (event.type === 'usage') {
    // A grandchild's tokens also count for the child that started it.
    for (const outer of levels.slice(0, -1)) items = mapToolDeep(items, outer.cardId, (card) => (card.child ? { ...card, child: addTokens(card.child, event) } : card));
  }
  const s: TuiState = { ...state, items };
  if (event.type === 'permission_request') {
    const request: PermissionRequest = { ...event, cardId: nestedId(level.cardId, event.id) };
    const first = s.approvals.length === 0;
    return { ...s, approvals: [...s.approvals, request], ...(first ? { approval: { choice: 0, denyText: '' } } : {}) };
  }
  if (event.type === 'permission_denied') {
    const cardId = nestedId(level.cardId, event.id);
    const head = s.approvals[0];
    const approvals = s.approvals.filter((a) => a.cardId !== cardId);
    if (approvals.length === s.approvals.length) return s;
    return { ...s, approvals, ...(head?.cardId === cardId ? { approval: { choice: 0, denyText: '' } } : {}) };
  }
  return s;
}

/** The id of the newest top-level card of this tool_use id (the raw id when there is none). */
function topCardId(items: TuiState['items'], toolUseId: string): string {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = itemAt(items, i, 'transcript item');
    if (item.kind === 'tool' && item.toolUseId === toolUseId) return item.id;
  }
  return toolUseId;
}

function newActivity(level: Level, at: number): SubagentActivity {
  return { agentType: level.agentType, depth: level.depth, startedAt: at, turns: 0, input: 0, output: 0, tools: [], text: '' };
}

function addTokens(a: SubagentActivity, event: EventOf<'usage'>): SubagentActivity {
  return { ...a, input: a.input + event.usage.input_tokens, output: a.output + event.usage.output_tokens };
}

function updateTool(a: SubagentActivity, cardId: string, rawId: string, change: (t: ToolItem) => ToolItem): SubagentActivity {
  const tools = mapToolDeep(a.tools, nestedId(cardId, rawId), change);
  return tools === a.tools ? a : { ...a, tools };
}

/** One child event applied to its activity. Pure, like the top-level reducer. */
export function reduceActivity(a: SubagentActivity, event: AgentEvent, at: number, cardId: string): SubagentActivity {
  switch (event.type) {
    case 'turn_start':
      return { ...a, turns: Math.max(a.turns, event.turn) };
    case 'text_delta':
      return { ...a, text: (a.text + event.text).slice(-TEXT_KEEP) };
    case 'assistant': {
      const text = event.message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
      return text.trim() === '' ? a : { ...a, text: text.slice(-TEXT_KEEP) };
    }
    case 'tool_start':
      return { ...a, tools: [...a.tools, newToolCard(nestedId(cardId, event.id), event, at)] };
    case 'tool_progress':
    case 'tool_result':
    case 'permission_request':
    case 'permission_denied':
      return updateTool(a, cardId, event.id, (t) => applyToolEvent(t, event));
    case 'usage':
      return addTokens(a, event);
    case 'terminal': {
      const tools = a.tools.map((t) => withStatus(t, { type: 'interrupt' }));
      return { ...a, tools, ended: { reason: event.reason, at } };
    }
    default:
      return a;
  }
}
