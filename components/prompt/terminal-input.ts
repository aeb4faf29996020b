// Recognises terminal reports that Ink 6.8's useInput passes through as plain text.
// Ink strips one leading ESC from sequences it does not know, so `\x1b[<64;1;1M` arrives as
// `[<64;1;1M` and `\x1b[200~` as `[200~`; every pattern here accepts both forms.

const SGR_MOUSE = /^(?:\x1b?\[<(\d+);\d+;\d+[Mm])+$/;
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
  return SGR_MOUSE.test(input) || /^\x1b?\[M[\s\S]{3}$/.test(input);
}

export const PASTE_START = /\x1b?\[200~/;
export const PASTE_END = /\x1b?\[201~/;

/**
 * xterm modifyOtherKeys reports a modified Enter as `CSI 27;mod;13~`, which Ink does not parse.
 */
export function isModifiedEnterReport(input: string): boolean {
  return /^\x1b?\[27;\d+;13~$/.test(input);
}

/**
 * A CSI sequence Ink did not recognise (with its ESC stripped), e.g. `[57;5u`-style reports
 * or function keys with parameters. Requires a digit parameter so fast-typed `[a` stays text.
 */
export function isUnknownEscapeSequence(input: string): boolean {
  return /^\x1b?\[[<>?=]?\d[\d;:]*[~A-Za-z$^@]$/.test(input) || input.startsWith('\x1b');
}

/** What the terminal sends when a bracketed paste ends. */
export const PASTE_END_SEQUENCE = '\x1b[201~';
/**
 * How long a bracketed paste may go quiet before it counts as ended. Terminals send a paste in a
 * burst, so this only fires when the end marker was lost (a broken link, a test harness); short
 * enough that the keys typed next are not held, long enough for a paste that arrives in pieces.
 */
export const PASTE_SILENCE_MS = 200;

export interface PasteTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: PasteTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
// Longest marker minus one: a marker split across two reads is still seen.
const MARKER_TAIL = '\x1b[200~'.length - 1;

/**
 * Follows raw terminal input and calls `onSilence` when a bracketed paste has started
 * (`ESC[200~`) but no end marker came within `silenceMs` of the last input. Without it a lost
 * end marker left the editor taking every later key as pasted text.
 */
export class PasteSilenceWatch {
  private open = false;
  private tail = '';
  private timer: unknown;

  constructor(
    private readonly onSilence: () => void,
    private readonly silenceMs = PASTE_SILENCE_MS,
    private readonly timers: PasteTimers = REAL_TIMERS,
  ) {}

  /** True while a paste has started and not ended. */
  get pasting(): boolean {
    return this.open;
  }

  push(chunk: string): void {
    const text = this.tail + chunk;
    // The last marker in the input decides whether a paste is still open.
    const start = text.lastIndexOf('\x1b[200~');
    const end = text.lastIndexOf('\x1b[201~');
    if (start !== -1 || end !== -1) this.open = start > end;
    this.tail = text.slice(-MARKER_TAIL);
    this.stopTimer();
    if (this.open) {
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        if (!this.open) return;
        this.open = false;
        this.tail = '';
        this.onSilence();
      }, this.silenceMs);
    }
  }

  dispose(): void {
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** The part of a TTY input stream the paste watch needs (process.stdin in the app). */
export interface WatchedInput {
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  off(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  unshift?(chunk: string): void;
  readableFlowing?: boolean | null;
  pause?(): unknown;
}

/**
 * Ends a bracketed paste whose end marker never came by putting one back into the input, as if
 * the terminal had sent it: the text so far is delivered through the usual path and later keys
 * work. Ink reads with 'readable', so this 'data' listener sees each chunk as Ink reads it and
 * does not change the stream's mode. Dispose before Ink unmounts: a 'data' listener left behind
 * would set stdin flowing once Ink removes its own.
 */
export function watchPasteSilence(input: WatchedInput, silenceMs = PASTE_SILENCE_MS, timers?: PasteTimers): () => void {
  const watch = new PasteSilenceWatch(() => input.unshift?.(PASTE_END_SEQUENCE), silenceMs, timers);
  const onData = (chunk: string | Buffer): void => watch.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  // A 'data' listener on a stream nobody reads yet would start it flowing, and input could be
  // emitted before Ink listens; paused, it waits for Ink's 'readable' reads.
  if (input.readableFlowing === null) input.pause?.();
  input.on('data', onData);
  return () => {
    input.off('data', onData);
    watch.dispose();
  };
}
