// Recognises terminal reports that Ink 6.8's useInput passes through as plain text.
// Ink strips one leading ESC from sequences it does not know, so `\x1b[<64;1;1M` arrives as
// `[<64;1;1M` and `\x1b[200~` as `[200~`; every pattern here accepts both forms.

// eslint-disable-next-line no-control-regex
const SGR_MOUSE = /^(?:\x1b?\[<(\d+);\d+;\d+[Mm])+$/;
// eslint-disable-next-line no-control-regex
const SGR_MOUSE_FIRST = /^\x1b?\[<(\d+);/;

/** Wheel direction of an SGR mouse report (button 64 = up, 65 = down, modifiers ignored). */
export function parseMouseWheel(input: string): 'up' | 'down' | undefined {
  if (!SGR_MOUSE.test(input)) return undefined;
  const button = Number(SGR_MOUSE_FIRST.exec(input)?.[1]);
  // Shift (4), Meta (8) and Ctrl (16) are added to the button number.
  const base = button & ~(4 | 8 | 16);
  if (base === 64) return 'up';
  if (base === 65) return 'down';
  return undefined;
}

/** Any mouse report (wheel, click, drag), SGR or legacy X10: never text for the prompt. */
export function isMouseReport(input: string): boolean {
  // eslint-disable-next-line no-control-regex
  return SGR_MOUSE.test(input) || /^\x1b?\[M[\s\S]{3}$/.test(input);
}

// eslint-disable-next-line no-control-regex
export const PASTE_START = /\x1b?\[200~/;
// eslint-disable-next-line no-control-regex
export const PASTE_END = /\x1b?\[201~/;

/**
 * xterm modifyOtherKeys reports a modified Enter as `CSI 27;mod;13~`, which Ink does not parse.
 */
export function isModifiedEnterReport(input: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^\x1b?\[27;\d+;13~$/.test(input);
}

/**
 * A CSI sequence Ink did not recognise (with its ESC stripped), e.g. `[57;5u`-style reports
 * or function keys with parameters. Requires a digit parameter so fast-typed `[a` stays text.
 */
export function isUnknownEscapeSequence(input: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^\x1b?\[[<>?=]?\d[\d;:]*[~A-Za-z$^@]$/.test(input) || input.startsWith('\x1b');
}
