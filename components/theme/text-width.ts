// The one measure of text on screen: string-width (the measure Ink uses) per grapheme, with
// graphemes from Intl.Segmenter. Loading them costs ~8 ms (string-width builds a Segmenter when
// imported, and the first Segmenter loads ICU's data), which the first frame does not need: its
// text is ASCII, box drawing and punctuation. Until loadTextWidth() has resolved, text made only of
// SIMPLE_TEXT characters (one column each, each its own grapheme) is measured here, and anything
// else throws TextWidthNotLoaded: the early frame then waits for the load and draws again. The
// app (run-tui) and the tests' setup wait for the load before drawing anything.
import type measureWidth from 'string-width';

let measure: typeof measureWidth | undefined;
let loading: Promise<void> | undefined;

/** Loads string-width (once); everything that draws after the first frame waits for it. */
export function loadTextWidth(): Promise<void> {
  loading ??= import('string-width').then((m) => {
    measure = m.default;
  });
  return loading;
}

/**
 * Characters that are each one column wide and never join a neighbour in a grapheme, so a string of
 * them is as many columns and graphemes as it has characters (test/components/theme/text-width.test.ts
 * checks every one against string-width and Intl.Segmenter): printable ASCII, Latin-1 and Latin
 * Extended letters, general punctuation, arrows, box drawing, block elements and geometric
 * shapes, braille (the spinner), and the few symbols the transcript's cards and notices draw.
 */
export const SIMPLE_TEXT = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u23bf\u23f4-\u23fa\u2500-\u25fc\u2610\u2699\u26a0\u2709\u2713\u2717\u273b\u2800-\u28ff]*$/;

export class TextWidthNotLoaded extends Error {
  override name = 'TextWidthNotLoaded';
}

/** Columns `text` takes, as string-width says. */
export function stringWidth(text: string): number {
  if (SIMPLE_TEXT.test(text)) return text.length;
  if (!measure) throw new TextWidthNotLoaded(`text width asked before loadTextWidth(): ${JSON.stringify(text.slice(0, 20))}`);
  return measure(text);
}

let segmenter: Intl.Segmenter | undefined;

/** The graphemes of `text` with their offsets, as Intl.Segmenter splits it. */
export function graphemes(text: string): Iterable<{ segment: string; index: number }> {
  if (SIMPLE_TEXT.test(text)) return simpleGraphemes(text);
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

function* simpleGraphemes(text: string): Generator<{ segment: string; index: number }> {
  // SIMPLE_TEXT is all in the Basic Multilingual Plane: one UTF-16 unit per character.
  for (let index = 0; index < text.length; index++) yield { segment: text.charAt(index), index };
}
