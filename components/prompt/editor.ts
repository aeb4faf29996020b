import type { Key } from 'ink';
import { is } from '../keys/keymap.js';
import { blankKey } from '../keys/split-keys.js';
import {
  lineEnd,
  lineStart,
  nextBoundary,
  nextWord,
  prevBoundary,
  prevWord,
  sanitizeInput,
  verticalMove,
} from './editor-text.js';
import {
  PASTE_END,
  PASTE_START,
  isModifiedEnterReport,
  isMouseReport,
  isUnknownEscapeSequence,
} from './terminal-input.js';

export { parseMouseWheel } from './terminal-input.js';

export type PastedBlock = { placeholder: string; text: string };

export type EditorState = {
  text: string;
  /** Index in `text` (UTF-16), always on a grapheme boundary. */
  cursor: number;
  /** Index into the history while browsing it; undefined while editing the draft. */
  historyIndex?: number;
  draftBeforeHistory?: string;
  /** Large pastes shown as a placeholder in `text` and expanded on submit. */
  pastes: PastedBlock[];
  /** Text received so far inside a bracketed paste that has not ended yet. */
  pasting?: string;
};

export type EditorContext = {
  /** Submitted prompts, newest last. */
  history: readonly string[];
  /**
   * The raw sequence behind this key, if the caller has it. Ink 6.8 reports both Backspace
   * (0x7f) and Delete (`ESC[3~`) as `key.delete`; only the raw sequence tells them apart.
   */
  raw?: string;
};

/**
 * `state` is the very same object when the key was not used, so the caller can pass it on.
 * `shown`: the submitted prompt as the box showed it, when it held large pastes as placeholders.
 */
export type EditorResult = { state: EditorState; submit?: string; shown?: string };

const LARGE_PASTE_LINES = 5;
const LARGE_PASTE_CHARS = 2000;

const NO_KEY: Key = blankKey();

export function emptyEditor(): EditorState {
  return { text: '', cursor: 0, pastes: [] };
}

/**
 * True while a bracketed paste is arriving (or starts in this input): the dispatcher must then
 * hand every event to the editor, since pasted text can look like keys (a tab, `/`, `?`).
 */
export function editorOwnsInput(state: EditorState, input: string): boolean {
  return state.pasting !== undefined || PASTE_START.test(input);
}

export function applyEditorKey(
  state: EditorState,
  input: string,
  key: Key,
  ctx: EditorContext,
): EditorResult {
  // With kitty's event-type reporting a key also sends a release; acting on it would type twice.
  if (key.eventType === 'release') return { state };
  if (state.pasting !== undefined) return continuePaste(state, input, key, ctx);
  const start = PASTE_START.exec(input);
  if (start) {
    const before = input.slice(0, start.index);
    const after = input.slice(start.index + start[0].length);
    const typed = before === '' ? state : insertText(state, sanitizeInput(before));
    return continuePaste({ ...typed, pasting: '' }, after, NO_KEY, ctx);
  }
  return applyKey(state, input, key, ctx);
}

function continuePaste(state: EditorState, input: string, key: Key, ctx: EditorContext): EditorResult {
  // Inside a paste every event is text; Ink turns a lone tab chunk into key.tab with no input.
  const raw = input === '' && key.tab ? '\t' : input;
  const end = PASTE_END.exec(raw);
  const pasted = (state.pasting ?? '') + (end ? raw.slice(0, end.index) : raw);
  if (!end) return { state: { ...state, pasting: pasted } };
  const { pasting: _done, ...rest } = state;
  const next = insertPaste(rest, pasted);
  const after = raw.slice(end.index + end[0].length);
  return after === '' ? { state: next } : applyEditorKey(next, after, NO_KEY, ctx);
}

function insertPaste(state: EditorState, raw: string): EditorState {
  const text = sanitizeInput(raw);
  if (text === '') return state;
  const lines = text.replace(/\n$/, '').split('\n').length;
  if (lines <= LARGE_PASTE_LINES && text.length <= LARGE_PASTE_CHARS) return insertText(state, text);
  const placeholder = uniquePlaceholder(state, lines);
  const inserted = insertText(state, placeholder);
  return { ...inserted, pastes: [...inserted.pastes, { placeholder, text }] };
}

function uniquePlaceholder(state: EditorState, lines: number): string {
  const base = `[pasted ${lines} ${lines === 1 ? 'line' : 'lines'}`;
  const taken = (p: string): boolean => state.text.includes(p) || state.pastes.some((b) => b.placeholder === p);
  if (!taken(`${base}]`)) return `${base}]`;
  let n = 2;
  while (taken(`${base} #${n}]`)) n++;
  return `${base} #${n}]`;
}

function applyKey(state: EditorState, input: string, key: Key, ctx: EditorContext): EditorResult {
  if (isMouseReport(input)) return { state };
  if (isModifiedEnterReport(input) || is('newline', input, key)) return { state: insertText(state, '\n') };
  if (key.return) return enter(state);
  if (key.upArrow) return { state: up(state, ctx.history) };
  if (key.downArrow) return { state: down(state, ctx.history) };
  if (key.leftArrow) return { state: moveTo(state, key.ctrl || key.meta ? prevWord(state.text, state.cursor) : left(state)) };
  if (key.rightArrow) return { state: moveTo(state, key.ctrl || key.meta ? nextWord(state.text, state.cursor) : right(state)) };
  if (key.home) return { state: moveTo(state, lineStart(state.text, state.cursor)) };
  if (key.end) return { state: moveTo(state, lineEnd(state.text, state.cursor)) };
  if (key.backspace || key.delete) {
    if (key.delete && ctx.raw !== undefined && isForwardDelete(ctx.raw)) return { state: deleteForward(state) };
    if (key.meta) return { state: deleteRange(state, prevWord(state.text, state.cursor), state.cursor) };
    return { state: backspace(state) };
  }
  if (key.ctrl) return ctrlKey(state, input);
  if (key.meta) return metaKey(state, input);
  if (key.escape || key.tab || key.pageUp || key.pageDown || key.super || key.hyper) return { state };
  if (input === '' || isUnknownEscapeSequence(input)) return { state };
  return typed(state, input);
}

/** Several characters in one event (fast typing, an unbracketed paste): a final lone CR is Enter. */
function typed(state: EditorState, input: string): EditorResult {
  const enterAtEnd = input.length > 1 && input.endsWith('\r') && !input.slice(0, -1).includes('\r');
  const body = enterAtEnd ? input.slice(0, -1) : input;
  const next = insertText(state, sanitizeInput(body));
  return enterAtEnd ? enter(next) : { state: next };
}

function ctrlKey(state: EditorState, input: string): EditorResult {
  const { text, cursor } = state;
  switch (input) {
    case 'a':
      return { state: moveTo(state, lineStart(text, cursor)) };
    case 'e':
      return { state: moveTo(state, lineEnd(text, cursor)) };
    case 'b':
      return { state: moveTo(state, left(state)) };
    case 'f':
      return { state: moveTo(state, right(state)) };
    case 'j':
      return { state: insertText(state, '\n') };
    case 'h':
      return { state: backspace(state) };
    case 'k': {
      const end = lineEnd(text, cursor);
      // At the end of a line, kill the newline itself (as readline does) so lines can be joined.
      return { state: deleteRange(state, cursor, end === cursor && end < text.length ? end + 1 : end) };
    }
    case 'u':
      return { state: deleteRange(state, lineStart(text, cursor), cursor) };
    case 'w':
      return { state: deleteRange(state, prevWord(text, cursor), cursor) };
    case 'd':
      // Ctrl+D on an empty prompt is the app's (exit); otherwise it deletes forward.
      return text === '' ? { state } : { state: deleteForward(state) };
    default:
      return { state };
  }
}

function metaKey(state: EditorState, input: string): EditorResult {
  // macOS Option+Left/Right send ESC b / ESC f.
  if (input === 'b') return { state: moveTo(state, prevWord(state.text, state.cursor)) };
  if (input === 'f') return { state: moveTo(state, nextWord(state.text, state.cursor)) };
  if (input === 'd') return { state: deleteRange(state, state.cursor, nextWord(state.text, state.cursor)) };
  return { state };
}

function enter(state: EditorState): EditorResult {
  const { text, cursor } = state;
  if (cursor > 0 && text[cursor - 1] === '\\') {
    return { state: edit(state, text.slice(0, cursor - 1) + '\n' + text.slice(cursor), cursor) };
  }
  const submit = expandPastes(text, state.pastes);
  if (submit.trim() === '') return { state };
  const folded = state.pastes.some((p) => text.includes(p.placeholder));
  return { state: emptyEditor(), submit, ...(folded ? { shown: text } : {}) };
}

export function expandPastes(text: string, pastes: readonly PastedBlock[]): string {
  let out = text;
  // A replacer function, so `$&` and friends in pasted text stay literal.
  for (const p of pastes) out = out.replace(p.placeholder, () => p.text);
  return out;
}

function isForwardDelete(raw: string): boolean {
  return /^\x1b\[3(?:;\d+(?::\d+)?)?[~$^]$/.test(raw);
}

function up(state: EditorState, history: readonly string[]): EditorState {
  const moved = verticalMove(state.text, state.cursor, -1);
  if (moved !== undefined) return moveTo(state, moved);
  const from = state.historyIndex === undefined ? history.length : Math.min(state.historyIndex, history.length);
  const index = from - 1;
  const entry = history[index];
  if (entry === undefined) return state;
  const draft = state.historyIndex === undefined ? state.text : (state.draftBeforeHistory ?? '');
  // Cursor on the first line, so a further Up keeps walking back through multi-line entries.
  return { ...state, text: entry, cursor: lineEnd(entry, 0), historyIndex: index, draftBeforeHistory: draft };
}

function down(state: EditorState, history: readonly string[]): EditorState {
  const moved = verticalMove(state.text, state.cursor, 1);
  if (moved !== undefined) return moveTo(state, moved);
  if (state.historyIndex === undefined) return state;
  const index = state.historyIndex + 1;
  const entry = history[index];
  if (entry !== undefined) return { ...state, text: entry, cursor: entry.length, historyIndex: index };
  const draft = state.draftBeforeHistory ?? '';
  const { historyIndex: _i, draftBeforeHistory: _d, ...rest } = state;
  return { ...rest, text: draft, cursor: draft.length };
}

function placeholderEndingAt(state: EditorState, pos: number): PastedBlock | undefined {
  return state.pastes.find((p) => pos >= p.placeholder.length && state.text.slice(pos - p.placeholder.length, pos) === p.placeholder);
}

function placeholderStartingAt(state: EditorState, pos: number): PastedBlock | undefined {
  return state.pastes.find((p) => state.text.startsWith(p.placeholder, pos));
}

// Placeholders move and delete as one unit so the user cannot half-edit one.
function left(state: EditorState): number {
  const p = placeholderEndingAt(state, state.cursor);
  return p ? state.cursor - p.placeholder.length : prevBoundary(state.text, state.cursor);
}

function right(state: EditorState): number {
  const p = placeholderStartingAt(state, state.cursor);
  return p ? state.cursor + p.placeholder.length : nextBoundary(state.text, state.cursor);
}

function backspace(state: EditorState): EditorState {
  const p = placeholderEndingAt(state, state.cursor);
  if (p) {
    const removed = deleteRange(state, state.cursor - p.placeholder.length, state.cursor);
    return { ...removed, pastes: removed.pastes.filter((b) => b !== p) };
  }
  return deleteRange(state, prevBoundary(state.text, state.cursor), state.cursor);
}

function deleteForward(state: EditorState): EditorState {
  const p = placeholderStartingAt(state, state.cursor);
  if (p) {
    const removed = deleteRange(state, state.cursor, state.cursor + p.placeholder.length);
    return { ...removed, pastes: removed.pastes.filter((b) => b !== p) };
  }
  return deleteRange(state, state.cursor, nextBoundary(state.text, state.cursor));
}

function moveTo(state: EditorState, cursor: number): EditorState {
  return cursor === state.cursor ? state : { ...state, cursor };
}

function deleteRange(state: EditorState, from: number, to: number): EditorState {
  if (from >= to) return state;
  return edit(state, state.text.slice(0, from) + state.text.slice(to), from);
}

function insertText(state: EditorState, s: string): EditorState {
  if (s === '') return state;
  const { text, cursor } = state;
  return edit(state, text.slice(0, cursor) + s + text.slice(cursor), cursor + s.length);
}

/** Any edit turns a recalled history entry into the new draft. */
function edit(state: EditorState, text: string, cursor: number): EditorState {
  const next: EditorState = { text, cursor, pastes: state.pastes };
  if (state.pasting !== undefined) next.pasting = state.pasting;
  return next;
}
