import type { AgentEvent } from '../../src/events.js';
import { bellEnabled, bellSequence } from './bell.js';


/** A focus report as a key event: never text for the prompt (typed `[I` has no ESC before it). */
export function focusReport(input: string, raw: string | undefined): boolean | undefined {
  if (!isFocusReport(input, raw)) return undefined;
  return (raw ?? input).endsWith('I');
}

export function isFocusReport(input: string, raw: string | undefined): boolean {
  return /^\x1b\[[IO]$/.test(raw ?? input) || (raw === undefined && /^\x1b?\[[IO]$/.test(input) && input.startsWith('\x1b'));
}

/** How a notification is sent: BEL, OSC 9 (iTerm2, WezTerm, kitty...), OSC 777 (rxvt, foot, Ghostty), or all. */
export type NotifyStyle = 'bell' | 'osc9' | 'osc777' | 'all';

export interface TurnNotifierOptions {
  env: NodeJS.ProcessEnv;
  now(): number;
  /** Turns shorter than this finish without a notification: the user is likely still watching. */
  afterMs: number;
  style: NotifyStyle;
}

export interface TurnNotifier {
  /** What to write to the terminal for this event, if anything. */
  onEvent(event: AgentEvent): string | undefined;
  /** The terminal reported focus in (true) or out (false). */
  setFocused(focused: boolean): void;
  /** Undefined until the terminal first reports (some never do). */
  focused(): boolean | undefined;
}

export function notificationSequence(text: string, style: NotifyStyle): string {
  const clean = text.replace(/[\x00-\x1f\x7f]/g, ' ');
  const bel = '\x07';
  const osc9 = `\x1b]9;${clean}\x07`;
  const osc777 = `\x1b]777;notify;cairn;${clean.replace(/;/g, ',')}\x07`;
  if (style === 'bell') return bel;
  if (style === 'osc9') return bellSequence(clean);
  if (style === 'osc777') return `${bel}${osc777}`;
  return `${bel}${osc9}${osc777}`;
}

/**
 * Rings when the user is needed and not looking: an approval that waits, or a turn over the
 * threshold that ends, while the terminal reports it is not focused. A terminal that never
 * reports focus is treated as unfocused (the user is told rather than missed).
 */
export function createTurnNotifier(options: TurnNotifierOptions): TurnNotifier {
  const enabled = bellEnabled(options.env);
  let focused: boolean | undefined;
  let turnStarted: number | undefined;
  return {
    focused: () => focused,
    setFocused(value) {
      focused = value;
    },
    onEvent(event) {
      if (event.type === 'user_prompt' && turnStarted === undefined) turnStarted = options.now();
      if (!enabled || focused === true) {
        if (event.type === 'terminal') turnStarted = undefined;
        return undefined;
      }
      if (event.type === 'permission_request') return notificationSequence(`cairn: approve ${event.name}?`, options.style);
      // A background agent's end is news whatever the turn: the user may have moved on.
      if (event.type === 'background_agent' && event.status !== 'running') return notificationSequence(`cairn: background agent ${event.id} ${event.status === 'completed' ? 'finished' : event.status}`, options.style);
      if (event.type !== 'terminal') return undefined;
      const took = turnStarted === undefined ? 0 : options.now() - turnStarted;
      turnStarted = undefined;
      // The person who pressed Esc is at the keyboard already.
      if (event.reason === 'aborted' || took < options.afterMs) return undefined;
      return notificationSequence(event.reason === 'completed' ? 'cairn: done' : `cairn: turn ended (${event.reason})`, options.style);
    },
  };
}
