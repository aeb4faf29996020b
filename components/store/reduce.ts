import type { PermissionMode } from '../../src/events.js';
import { builtinPriceTable, type PriceTable } from '../../src/pricing.js';
import { emptyEditor } from '../prompt/editor.js';
import { draftWithQueued } from '../prompt/queued-draft.js';
import type { ThemeName } from '../theme/theme.js';
import { reduceBackgroundAction } from './background-state.js';
import { push } from './items.js';
import { askKey, dropAnswered, reduceEvent } from './reduce-events.js';
import { reduceRecorded } from './reduce-recorded.js';
import { emptyUsage, reduceUsage } from './reduce-usage.js';
import { mapToolDeep, NEST_SEP } from './subagent-state.js';
import { withStatus } from './tool-card.js';
import type { ScrollState, ToolItem, TuiState, UiAction } from './types.js';

export const DEFAULT_CONTEXT_LIMIT = 200_000;

export interface InitialStateOptions {
  model?: string;
  provider?: string;
  cwd?: string;
  mode?: PermissionMode;
  themeName?: ThemeName;
  contextLimit?: number;
  pricing?: PriceTable;
}

export function initialState(options: InitialStateOptions = {}): TuiState {
  const mode = options.mode ?? 'default';
  return {
    items: [],
    nextId: 1,
    info: {
      model: options.model ?? '',
      provider: options.provider ?? '',
      cwd: options.cwd ?? '',
      mode,
      startedInBypass: mode === 'bypassPermissions',
      offline: false,
    },
    busy: false,
    usage: emptyUsage,
    pricing: options.pricing ?? builtinPriceTable,
    contextLimit: options.contextLimit ?? DEFAULT_CONTEXT_LIMIT,
    approvals: [],
    approval: { choice: 0, denyText: '' },
    queued: [],
    focus: 'editor',
    scroll: { follow: true },
    palette: { index: 0 },
    editor: emptyEditor(),
    themeName: options.themeName ?? 'dark',
    todos: [],
    toasts: [],
    background: { cron: 0, shells: 0 },
    pastedPrompts: [],
  };
}

/** The whole TUI state machine: engine events and UI actions in, next state out. No side effects. */
export function reduce(state: TuiState, action: UiAction): TuiState {
  switch (action.type) {
    case 'event': {
      const e = action.event;
      const s = e.type === 'user_prompt' ? foldPastes(reduceEvent(state, e, action.at), e.text) : reduceEvent(state, e, action.at);
      const usage = reduceUsage(s.usage, action.event);
      return usage === s.usage ? s : { ...s, usage };
    }
    case 'notice':
      return push(state, (id) => ({ kind: 'notice', id, level: action.level, message: action.message, ...(action.code !== undefined ? { code: action.code } : {}) }));
    case 'editor': {
      if (state.editor === action.editor) return state;
      // A palette closed with Esc stays closed for that text only: "/" typed again opens it.
      const dismissed = state.palette.dismissedFor;
      const palette = dismissed !== undefined && action.editor.text !== dismissed ? { index: state.palette.index } : state.palette;
      return { ...state, editor: action.editor, palette, exitArmedAt: undefined };
    }
    case 'thumbnail': {
      const { label, image, columns, rows } = action;
      const items = state.items.map((item) =>
        item.kind === 'user' && item.attachments?.includes(label) && !item.thumbnails?.[label] ? { ...item, thumbnails: { ...item.thumbnails, [label]: { image, columns, rows } } } : item,
      );
      return items.some((item, i) => item !== state.items[i]) ? { ...state, items } : state;
    }
    case 'queue':
      return { ...state, queued: [...state.queued, action.text] };
    case 'unqueue':
      return { ...state, queued: action.remaining, editor: draftWithQueued(action.taken, state.editor) };
    case 'scroll':
      return { ...state, scroll: scrollBy(state.scroll, action.delta, action.total, action.height) };
    case 'scrollShift':
      return state.scroll.follow
        ? state
        : { ...state, scroll: { follow: false, top: state.scroll.top + action.lines, seenTotal: state.scroll.seenTotal + action.lines } };
    case 'scrollTo':
      return {
        ...state,
        scroll: action.to === 'bottom' ? { follow: true } : scrollBy({ follow: false, top: 0, seenTotal: action.total }, 0, action.total, action.height),
      };
    case 'focus':
      return { ...state, focus: action.focus, ...(action.selectedId !== undefined ? { selectedId: action.selectedId } : {}) };
    case 'select':
      return { ...state, selectedId: action.id };
    case 'toggle':
      return toggle(state, action.id, !action.currentlyExpanded);
    case 'approvalChoice':
      return { ...state, approval: { ...state.approval, choice: action.choice } };
    case 'questionUi':
      return { ...state, approval: { ...state.approval, question: action.ui } };
    case 'approvalText': {
      const { pasting: _was, ...approval } = state.approval;
      return { ...state, approval: { ...approval, denyText: action.text, ...(action.pasting !== undefined ? { pasting: action.pasting } : {}) } };
    }
    case 'pastedPrompt':
      return { ...state, pastedPrompts: [...state.pastedPrompts, { text: action.text, display: action.display }].slice(-PASTED_KEPT) };
    case 'approvalAnswered': {
      // Only the ask answered leaves (parallel subagents can ask under one tool_use id). A
      // subagent's request names its nested card; a main-agent request's card has its id.
      const answered = state.approvals.find((a) => askKey(a) === action.id);
      const cardId = answered?.cardId ?? answered?.id ?? action.id;
      const s = dropAnswered(state, action.id);
      // Its timer starts now: the wait for the answer is not the tool's time.
      const running = (t: ToolItem): ToolItem => {
        const next = withStatus(t, { type: 'run' });
        return next === t || action.at === undefined ? next : { ...next, startedAt: action.at };
      };
      return action.allowed ? { ...s, items: mapToolDeep(s.items, cardId, running) } : s;
    }
    case 'palette':
      return {
        ...state,
        // A dismissal lasts until the text changes (the editor case above), not until the next refresh.
        palette: { ...state.palette, index: action.index ?? state.palette.index, ...(action.dismissedFor !== undefined ? { dismissedFor: action.dismissedFor } : {}) },
      };
    case 'theme':
      return { ...state, themeName: action.name };
    case 'sessionName':
      return { ...state, info: { ...state.info, name: action.name } };
    case 'usageReset':
      // The counters start again; how full the context window is stays a fact, not a count.
      return { ...state, usage: { ...emptyUsage, context: state.usage.context } };
    case 'exitArm':
      return { ...state, exitArmedAt: action.at };
    case 'togglePlan':
      return state.plan ? { ...state, plan: { ...state.plan, expanded: !state.plan.expanded } } : state;
    case 'dialog':
      return { ...state, dialog: action.dialog };
    case 'viewer':
      return { ...state, viewer: action.viewer };
    case 'recorded': {
      // A resumed session's plan is pinned folded: it was read when it was approved.
      const s = reduceRecorded(state, action.events, action.at, reduce);
      return s.plan?.expanded ? { ...s, plan: { ...s.plan, expanded: false } } : s;
    }
    case 'background':
    case 'toastExpire':
      return reduceBackgroundAction(state, action);
  }
}

const PASTED_KEPT = 20;

/** The user_prompt just pushed: shown as typed, pastes folded, if it was sent with large pastes. */
function foldPastes(state: TuiState, text: string): TuiState {
  const at = state.pastedPrompts.findIndex((p) => p.text === text);
  const last = state.items[state.items.length - 1];
  const pasted = state.pastedPrompts[at];
  if (!pasted || last?.kind !== 'user') return state;
  return { ...state, items: [...state.items.slice(0, -1), { ...last, display: pasted.display }], pastedPrompts: state.pastedPrompts.filter((_, i) => i !== at) };
}

/** Scrolling to (or past) the last page means following new output again. */
export function scrollBy(scroll: ScrollState, delta: number, total: number, height: number): ScrollState {
  // Off the bottom, one row of the viewport shows the "more below" marker.
  const bottomTop = Math.max(0, total - Math.max(1, height - 1));
  const top = scroll.follow ? bottomTop : Math.min(scroll.top, bottomTop);
  const next = Math.max(0, Math.min(bottomTop, top + delta));
  if (next >= bottomTop) return { follow: true };
  return { follow: false, top: next, seenTotal: scroll.follow ? total : scroll.seenTotal };
}

function toggle(state: TuiState, id: string, expanded: boolean): TuiState {
  const items = state.items.map((item) => {
    if (item.id !== id) return item;
    if (item.kind === 'tool' || item.kind === 'thinking' || item.kind === 'compact' || item.kind === 'cron' || item.kind === 'user') return { ...item, userExpanded: expanded };
    return item;
  });
  // A subagent's nested card.
  if (id.includes(NEST_SEP)) return { ...state, items: mapToolDeep(items, id, (t) => ({ ...t, userExpanded: expanded })) };
  return { ...state, items };
}
