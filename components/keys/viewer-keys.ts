import type { Key } from 'ink';
import { isUnknownEscapeSequence, PASTE_END, PASTE_START } from '../prompt/terminal-input.js';
import type { TuiState, ViewerSource, ViewerState } from '../store/types.js';
import type { AppContext } from '../actions/app-context.js';
import { is, typedText } from './keymap.js';
import { blankKey } from './split-keys.js';
import { itemAt } from '../../src/util/invariant.js';

/** Opens the full view of a card or of the waiting approval. */
export function openViewer(source: ViewerSource, deps: AppContext): void {
  deps.store.dispatch({ type: 'viewer', viewer: { source, top: 0 } });
}

/** The first line showing the match: a third of the way down the page, so what leads to it shows. */
function topFor(line: number, height: number, total: number): number {
  return clampTop(line - Math.floor(height / 3), height, total);
}

function clampTop(top: number, height: number, total: number): number {
  return Math.max(0, Math.min(top, total - height));
}

/** The next (or previous) line from `from` whose text holds `query`, wrapping around; case-insensitive. */
export function findMatch(lines: readonly string[], query: string, from: number, step: 1 | -1): number | undefined {
  if (query === '' || lines.length === 0) return undefined;
  const q = query.toLowerCase();
  for (let n = 0; n < lines.length; n++) {
    const i = (((from + step * n) % lines.length) + lines.length) % lines.length;
    if (itemAt(lines, i, 'viewer line').toLowerCase().includes(q)) return i;
  }
  return undefined;
}

/** The mouse wheel over the full view: `delta` lines. */
export function scrollViewer(delta: number, state: TuiState, deps: AppContext): void {
  const viewer = state.viewer;
  if (!viewer) return;
  const { height, lines } = deps.view.viewer ?? { height: 1, lines: [] };
  deps.store.dispatch({ type: 'viewer', viewer: { ...viewer, top: clampTop(viewer.top + delta, height, lines.length) } });
}

/** The full view takes every key but Ctrl+C: scrolling, search, and q/Esc back to where it was opened. */
export function handleViewerKey(input: string, key: Key, state: TuiState, deps: AppContext): void {
  const viewer = state.viewer;
  if (!viewer) return;
  const { height, lines } = deps.view.viewer ?? { height: 1, lines: [] };
  const set = (next: ViewerState | undefined): void => deps.store.dispatch({ type: 'viewer', viewer: next });
  const moveTo = (top: number): void => set({ ...viewer, top: clampTop(top, height, lines.length) });
  const jump = (query: string, from: number, step: 1 | -1): void => {
    const match = findMatch(lines, query, from, step);
    const { match: _old, ...rest } = viewer;
    set({ ...rest, search: { query, typing: false }, ...(match !== undefined ? { match, top: topFor(match, height, lines.length) } : {}) });
  };

  if (viewer.search?.typing) return searchKey(input, key, viewer, set, jump);
  // Letters that came in one read (fast typing: "/FAIL") are keys one by one, as in less.
  const chars = [...input];
  if (chars.length > 1 && typedText(input, key) !== undefined && !isUnknownEscapeSequence(input) && !PASTE_START.test(input)) {
    for (const ch of chars) handleViewerKey(ch, blankKey(), deps.store.getSnapshot(), deps);
    return;
  }
  if (is('viewerClose', input, key)) return set(undefined);
  const page = Math.max(1, height - 1);
  if (is('viewerLineUp', input, key)) return moveTo(viewer.top - 1);
  if (is('viewerLineDown', input, key)) return moveTo(viewer.top + 1);
  if (is('viewerPageUp', input, key)) return moveTo(viewer.top - page);
  if (is('viewerPageDown', input, key)) return moveTo(viewer.top + page);
  if (is('viewerTop', input, key)) return moveTo(0);
  if (is('viewerBottom', input, key)) return moveTo(lines.length);
  if (is('search', input, key)) return set({ ...viewer, search: { query: '', typing: true } });
  const query = viewer.search?.query;
  if (query && is('nextMatch', input, key)) return jump(query, (viewer.match ?? viewer.top - 1) + 1, 1);
  if (query && is('prevMatch', input, key)) return jump(query, (viewer.match ?? viewer.top) - 1, -1);
}

/** Typing the query after `/`: Enter finds it from the top of the page, Esc leaves the search. */
function searchKey(input: string, key: Key, viewer: ViewerState, set: (v: ViewerState | undefined) => void, jump: (q: string, from: number, step: 1 | -1) => void): void {
  const query = viewer.search?.query ?? '';
  const typing = (q: string): void => set({ ...viewer, search: { query: q, typing: true } });
  if (is('back', input, key)) {
    const { search: _s, match: _m, ...rest } = viewer;
    return set(rest);
  }
  if (is('confirm', input, key)) return jump(query, viewer.top, 1);
  if (is('deleteBack', input, key)) return typing([...query].slice(0, -1).join(''));
  // A paste is text for the query, on one line.
  const text = typedText(input, key)?.replace(PASTE_START, '').replace(PASTE_END, '').replace(/[\r\n]+/g, ' ');
  if (text) typing(query + text);
}
