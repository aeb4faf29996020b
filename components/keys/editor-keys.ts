import type { Key } from 'ink';
import type { EditorResult, EditorState } from '../prompt/editor.js';
import { backspace, deleteForward, deleteRange, down, enter, insertPaste, insertText, left, moveTo, right, up } from '../prompt/editor.js';
import { lineEnd, lineStart, nextWord, prevWord, sanitizeInput } from '../prompt/editor-text.js';
import { PASTE_END, PASTE_START, isModifiedEnterReport, isMouseReport, isUnknownEscapeSequence } from '../prompt/terminal-input.js';
import type { KeyCommand } from './keymap.js';
import { is, isRelease, typedText, withBackspace } from './keymap.js';
import { blankKey, pastedText } from './split-keys.js';
import { droppedPaths } from '../prompt/dropped-paths.js';

export type EditorContext = {
  /** Submitted prompts, newest last. */
  history: readonly string[];
  /**
   * The raw sequence behind this key, if the caller has it. Ink 6.8 reports both Backspace
   * (0x7f) and Delete (`ESC[3~`) as `key.delete`; only the raw sequence tells them apart.
   */
  raw?: string;
  /** A paste that is only paths to files comes back as `dropped` (the main prompt attaches images and PDFs). */
  takesDroppedFiles?: boolean;
};

type Edit = (state: EditorState, ctx: EditorContext) => EditorState | EditorResult;

const cursorTo = (where: (text: string, cursor: number) => number): Edit => (s) => moveTo(s, where(s.text, s.cursor));

/**
 * What each of the prompt's commands does to the draft, tried in this order (so a word move is
 * tried before a character move, Alt+Backspace before Backspace). Which keys they are is the
 * key table's (keymap.ts), so a rebinding reaches the editor too.
 */
const EDITS: readonly (readonly [KeyCommand, Edit])[] = [
  ['newline', (s) => insertText(s, '\n')],
  ['confirm', enter],
  ['up', (s, ctx) => up(s, ctx.history)],
  ['down', (s, ctx) => down(s, ctx.history)],
  ['wordLeft', cursorTo(prevWord)],
  ['wordRight', cursorTo(nextWord)],
  ['left', (s) => moveTo(s, left(s))],
  ['right', (s) => moveTo(s, right(s))],
  ['lineStart', cursorTo(lineStart)],
  ['lineEnd', cursorTo(lineEnd)],
  ['deleteWordBack', (s) => deleteRange(s, prevWord(s.text, s.cursor), s.cursor)],
  ['deleteWordForward', (s) => deleteRange(s, s.cursor, nextWord(s.text, s.cursor))],
  ['deleteBack', backspace],
  // Ctrl+D on an empty prompt is the app's (exit); there is nothing to delete either way.
  ['deleteForward', deleteForward],
  [
    'killToLineEnd',
    (s) => {
      const end = lineEnd(s.text, s.cursor);
      // At the end of a line, kill the newline itself (as readline does) so lines can be joined.
      return deleteRange(s, s.cursor, end === s.cursor && end < s.text.length ? end + 1 : end);
    },
  ],
  ['killToLineStart', (s) => deleteRange(s, lineStart(s.text, s.cursor), s.cursor)],
];

/** A key for the prompt box: an edit, a paste (bracketed, possibly over several events), or typed text. */
export function applyEditorKey(state: EditorState, input: string, key: Key, ctx: EditorContext): EditorResult {
  if (isRelease(key)) return { state };
  if (state.pasting !== undefined) return continuePaste(state, input, key, ctx);
  const start = PASTE_START.exec(input);
  if (start) {
    const before = input.slice(0, start.index);
    const after = input.slice(start.index + start[0].length);
    const typed = before === '' ? state : insertText(state, sanitizeInput(before));
    return continuePaste({ ...typed, pasting: '' }, after, blankKey(), ctx);
  }
  return applyKey(state, input, withBackspace(key, ctx.raw), ctx);
}

function continuePaste(state: EditorState, input: string, key: Key, ctx: EditorContext): EditorResult {
  const raw = pastedText(input, key);
  const end = PASTE_END.exec(raw);
  const pasted = (state.pasting ?? '') + (end ? raw.slice(0, end.index) : raw);
  if (!end) return { state: { ...state, pasting: pasted } };
  const { pasting: _done, ...rest } = state;
  const paths = ctx.takesDroppedFiles ? droppedPaths(pasted) : undefined;
  const next = paths ? rest : insertPaste(rest, pasted);
  const after = raw.slice(end.index + end[0].length);
  const result = after === '' ? { state: next } : applyEditorKey(next, after, blankKey(), ctx);
  return paths ? { ...result, dropped: { paths, pasted } } : result;
}

function applyKey(state: EditorState, input: string, key: Key, ctx: EditorContext): EditorResult {
  if (isMouseReport(input)) return { state };
  if (isModifiedEnterReport(input)) return { state: insertText(state, '\n') };
  for (const [command, edit] of EDITS) {
    if (!is(command, input, key)) continue;
    const result = edit(state, ctx);
    return 'state' in result ? result : { state: result };
  }
  const text = typedText(input, key);
  if (text === undefined || isUnknownEscapeSequence(text)) return { state };
  return typed(state, text);
}

/** Several characters in one event (fast typing, an unbracketed paste): a final lone CR is Enter. */
function typed(state: EditorState, input: string): EditorResult {
  const enterAtEnd = input.length > 1 && input.endsWith('\r') && !input.slice(0, -1).includes('\r');
  const body = enterAtEnd ? input.slice(0, -1) : input;
  const next = insertText(state, sanitizeInput(body));
  return enterAtEnd ? enter(next) : { state: next };
}
