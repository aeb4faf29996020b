import type { Key } from 'ink';
import { group } from '../../src/util/invariant.js';

/** One key press: what Ink's useInput would have reported for it alone, and its bytes. */
export interface KeyPress {
  input: string;
  key: Key;
  raw: string | undefined;
}

export function blankKey(): Key {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
  };
}

// C0 controls that are keys of their own; CR, LF and tab stay inside typed text (an unbracketed
// multi-line paste must not send each line).
const KEY_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/;

/**
 * Ink 6.8 splits a read at escape sequences only: `BSpace BSpace BSpace` or `C-e C-u` arriving in
 * one read reach useInput as one event whose text is the control bytes, and nothing used them.
 * This splits such an event into the keys it holds, in order, each as Ink reports a lone key.
 * Events that start with ESC are one sequence already; text runs stay whole.
 */
export function splitKeys(input: string, key: Key, raw: string | undefined): KeyPress[] {
  // Fast typing, or a busy terminal, can deliver a word and the Enter (or Tab) after it in one read:
  // that is the text, then the key. A chunk with line breaks inside stays whole (an unbracketed paste).
  const typedThenKey = raw === undefined ? null : /^([^\r\n\t\x1b]+)([\r\t])$/.exec(raw);
  if (typedThenKey) {
    const typed = group(typedThenKey, 1);
    if (!KEY_CONTROL.test(typed)) return [textPress(typed), textPress(group(typedThenKey, 2))];
  }
  if (raw === undefined || raw.length <= 1 || raw.startsWith('\x1b') || !KEY_CONTROL.test(raw)) return [{ input, key, raw }];
  const out: KeyPress[] = [];
  let text = '';
  const flush = (): void => {
    if (text !== '') out.push(textPress(text));
    text = '';
  };
  for (const ch of raw) {
    if (KEY_CONTROL.test(ch)) {
      flush();
      out.push(controlPress(ch));
    } else text += ch;
  }
  flush();
  return out;
}

/** A control byte as Ink's parseKeypress reports it when it arrives alone. */
function controlPress(ch: string): KeyPress {
  const key = blankKey();
  if (ch === '\x7f') return { input: '', key: { ...key, delete: true }, raw: ch };
  if (ch === '\b') return { input: '', key: { ...key, backspace: true }, raw: ch };
  const code = ch.charCodeAt(0);
  if (code >= 1 && code <= 0x1a) return { input: String.fromCharCode(code + 96), key: { ...key, ctrl: true }, raw: ch };
  return { input: ch, key, raw: ch };
}

/** The bytes of an event inside a bracketed paste, where every byte is text: Ink turns a lone tab into a Tab key with no input. */
export function pastedText(input: string, key: Key): string {
  return input === '' && key.tab ? '\t' : input;
}

function textPress(text: string): KeyPress {
  const key = blankKey();
  if (text === '\r') return { input: '\r', key: { ...key, return: true }, raw: text };
  if (text === '\t') return { input: '', key: { ...key, tab: true }, raw: text };
  return { input: text, key: { ...key, shift: /^[A-Z]$/.test(text) }, raw: text };
}
