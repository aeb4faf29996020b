import type { Key } from 'ink';
import { isExpanded } from '../transcript/item-lines.js';
import { blockOf } from '../transcript/line-index.js';
import { viewWindow } from '../transcript/view-top.js';
import type { TuiState } from '../store/types.js';
import type { AppContext } from '../actions/app-context.js';
import { isLive } from '../store/tool-card.js';
import { is, typedText, whichOf } from './keymap.js';
import { selectableCards } from './selectable-cards.js';
import { openViewer } from './viewer-keys.js';
import { fixPrompt } from '../transcript/finding-lines.js';
import { submit } from '../actions/submit.js';

/** Selection mode: arrows move over the cards, Space folds one, Enter shows it whole, f asks for a finding's fix, Esc/Tab go back to the prompt. */
export function handleTranscriptKey(input: string, key: Key, state: TuiState, deps: AppContext): boolean {
  const { store } = deps;
  const selectable = selectableCards(state.items);
  const at = selectable.findIndex((i) => i.id === state.selectedId);
  if (is('toggleFocus', input, key) || is('back', input, key)) {
    store.dispatch({ type: 'focus', focus: 'editor' });
    return true;
  }
  const direction = whichOf('up', 'down', input, key);
  if (direction) {
    const next = selectable[Math.max(0, Math.min(selectable.length - 1, (at < 0 ? selectable.length : at) + (direction === 'up' ? -1 : 1)))];
    if (next) {
      store.dispatch({ type: 'select', id: next.id });
      reveal(next.id, deps);
    }
    return true;
  }
  if (is('toggle', input, key)) {
    const item = selectable[at];
    // A finding shows all it has; its full view is Enter.
    if (item && item.kind !== 'finding') store.dispatch({ type: 'toggle', id: item.id, currentlyExpanded: isExpanded(item) });
    return true;
  }
  if (is('open', input, key)) {
    const item = selectable[at];
    if (item) openViewer({ kind: 'item', id: item.id }, deps);
    return true;
  }
  if (is('fixFinding', input, key)) {
    const item = selectable[at];
    if (item?.kind !== 'finding') return true;
    store.dispatch({ type: 'focus', focus: 'editor' });
    submit(fixPrompt(item.finding), deps);
    return true;
  }
  if (is('stopAgent', input, key)) {
    const item = selectable[at];
    // Only a running background agent's card stops; on any other card x is typing.
    if (item?.kind === 'tool' && item.backgroundAgent === true && isLive(item.status)) {
      void deps.commands.find('agents')?.run(`stop ${item.toolUseId}`, deps);
      return true;
    }
  }
  const end = whichOf('top', 'bottom', input, key);
  if (end) {
    store.dispatch({ type: 'scrollTo', to: end, total: deps.view.total, height: deps.view.height });
    return true;
  }
  // Anything else is typing: hand the focus back to the prompt and let the editor have the key.
  if (typedText(input, key) !== undefined) store.dispatch({ type: 'focus', focus: 'editor' });
  return false;
}

/**
 * Tab: selection starts from the newest card in view (else the newest above it, else the newest),
 * never from a card selected long ago that has scrolled away, and the card is scrolled into view.
 */
export function enterSelection(state: TuiState, deps: AppContext): void {
  const cards = selectableCards(state.items);
  const { index, height } = deps.view;
  let chosen = cards[cards.length - 1];
  if (index) {
    const win = viewWindow(state.scroll, index, height);
    const placed = cards.map((card) => ({ card, block: blockOf(index, card.id) }));
    const inView = placed.filter(({ block }) => block && block.start < win.top + win.rows && block.start + block.count > win.top);
    const above = placed.filter(({ block }) => block && block.start < win.top);
    chosen = (inView[inView.length - 1] ?? above[above.length - 1])?.card ?? chosen;
  }
  deps.store.dispatch({ type: 'focus', focus: 'transcript', ...(chosen ? { selectedId: chosen.id } : {}) });
  if (chosen) reveal(chosen.id, deps);
}

/** Scrolls just enough to show the selected card's header. */
function reveal(id: string, deps: AppContext): void {
  const { index, height, total } = deps.view;
  const block = index ? blockOf(index, id) : undefined;
  if (!block) return;
  const state = deps.store.getSnapshot();
  // Once scrolled, a row shows the "more below" marker: count as scrollBy does, or the header lands a row off.
  const rows = Math.max(1, height - 1);
  const top = state.scroll.follow ? Math.max(0, total - rows) : state.scroll.top;
  if (block.start < top) deps.store.dispatch({ type: 'scroll', delta: block.start - top, total, height });
  else if (block.start >= top + rows) deps.store.dispatch({ type: 'scroll', delta: block.start - (top + rows) + 1, total, height });
}
