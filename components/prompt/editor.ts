import type { AttachmentBlock } from '../../src/messages.js';
import { lineEnd, nextBoundary, prevBoundary, sanitizeInput, verticalMove } from './editor-text.js';
import { PASTE_START } from './terminal-input.js';

// The prompt's draft and what can be done to it; which key does what is components/keys/editor-keys.ts.

export { parseMouseWheel } from './terminal-input.js';

/**
 * A unit the draft shows in brackets: a large paste (expanded on submit), or an attached image
 * or PDF (its chip `[image shot.png · 1280x800]`, sent as the attachment beside the text).
 */
export type PastedBlock = { placeholder: string; text: string; attachment?: AttachmentBlock };

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

/**
 * `state` is the very same object when the key was not used, so the caller can pass it on.
 * `shown`: the submitted prompt as the box showed it, when it held large pastes as placeholders.
 */
export type EditorResult = {
  state: EditorState;
  submit?: string;
  shown?: string;
  /** The attachments whose chips the submitted draft held. */
  attachments?: AttachmentBlock[];
  /** A paste that was only file paths (a dropped file): the caller attaches them, or types `pasted` if they are not files. */
  dropped?: { paths: string[]; pasted: string };
};

const LARGE_PASTE_LINES = 5;
const LARGE_PASTE_CHARS = 2000;

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

export function insertPaste(state: EditorState, raw: string): EditorState {
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

/** Enter: sends the draft (pastes expanded), or a line break after a trailing backslash. */
export function enter(state: EditorState): EditorResult {
  const { text, cursor } = state;
  if (cursor > 0 && text[cursor - 1] === '\\') {
    return { state: edit(state, text.slice(0, cursor - 1) + '\n' + text.slice(cursor), cursor) };
  }
  const submit = expandPastes(text, state.pastes);
  if (submit.trim() === '') return { state };
  const held = state.pastes.filter((p) => text.includes(p.placeholder));
  const folded = held.some((p) => p.attachment === undefined);
  const attachments = held.flatMap((p) => (p.attachment ? [p.attachment] : []));
  return { state: emptyEditor(), submit, ...(folded ? { shown: text } : {}), ...(attachments.length ? { attachments } : {}) };
}

/** An attachment's chip typed at the cursor, one unit for the cursor and Backspace, sent beside the text. */
export function insertAttachment(state: EditorState, chip: string, attachment: AttachmentBlock): EditorState {
  let placeholder = chip;
  for (let n = 2; state.text.includes(placeholder) || state.pastes.some((b) => b.placeholder === placeholder); n++) placeholder = `${chip.slice(0, -1)} #${n}]`;
  // The space after it is part of the unit, so one Backspace takes the chip out whole.
  placeholder = `${placeholder} `;
  const before = state.cursor > 0 && !/\s/.test(state.text[state.cursor - 1] ?? '') ? ' ' : '';
  const inserted = insertText(state, `${before}${placeholder}`);
  return { ...inserted, pastes: [...inserted.pastes, { placeholder, text: placeholder, attachment }] };
}

export function expandPastes(text: string, pastes: readonly PastedBlock[]): string {
  let out = text;
  // A replacer function, so `$&` and friends in pasted text stay literal.
  for (const p of pastes) out = out.replace(p.placeholder, () => p.text);
  return out;
}

/** Up: a line up in the draft, else the previous prompt in the history. */
export function up(state: EditorState, history: readonly string[]): EditorState {
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

/** Down: a line down in the draft, else the next prompt in the history (after the newest: the draft). */
export function down(state: EditorState, history: readonly string[]): EditorState {
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
export function left(state: EditorState): number {
  const p = placeholderEndingAt(state, state.cursor);
  return p ? state.cursor - p.placeholder.length : prevBoundary(state.text, state.cursor);
}

export function right(state: EditorState): number {
  const p = placeholderStartingAt(state, state.cursor);
  return p ? state.cursor + p.placeholder.length : nextBoundary(state.text, state.cursor);
}

export function backspace(state: EditorState): EditorState {
  const p = placeholderEndingAt(state, state.cursor);
  if (p) {
    const removed = deleteRange(state, state.cursor - p.placeholder.length, state.cursor);
    return { ...removed, pastes: removed.pastes.filter((b) => b !== p) };
  }
  return deleteRange(state, prevBoundary(state.text, state.cursor), state.cursor);
}

export function deleteForward(state: EditorState): EditorState {
  const p = placeholderStartingAt(state, state.cursor);
  if (p) {
    const removed = deleteRange(state, state.cursor, state.cursor + p.placeholder.length);
    return { ...removed, pastes: removed.pastes.filter((b) => b !== p) };
  }
  return deleteRange(state, state.cursor, nextBoundary(state.text, state.cursor));
}

export function moveTo(state: EditorState, cursor: number): EditorState {
  return cursor === state.cursor ? state : { ...state, cursor };
}

export function deleteRange(state: EditorState, from: number, to: number): EditorState {
  if (from >= to) return state;
  return edit(state, state.text.slice(0, from) + state.text.slice(to), from);
}

export function insertText(state: EditorState, s: string): EditorState {
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
