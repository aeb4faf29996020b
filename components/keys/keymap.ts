import type { Key } from 'ink';

/** Everything a key can mean, whichever layer ends up handling it. */
export type KeyCommand =
  | 'ctrlC'
  | 'eof'
  | 'interrupt'
  | 'cycleMode'
  | 'toggleFocus'
  | 'pageUp'
  | 'pageDown'
  | 'lineUp'
  | 'lineDown'
  | 'top'
  | 'bottom'
  | 'up'
  | 'down'
  | 'confirm'
  | 'newline'
  | 'toggle'
  | 'complete'
  | 'back'
  | 'redraw'
  | 'open'
  | 'viewFull'
  | 'viewerClose'
  | 'viewerLineUp'
  | 'viewerLineDown'
  | 'viewerPageUp'
  | 'viewerPageDown'
  | 'viewerTop'
  | 'viewerBottom'
  | 'search'
  | 'nextMatch'
  | 'prevMatch'
  | 'toggleMouse'
  | 'historySearch'
  | 'clearDraft'
  | 'rewind'
  | 'editInEditor';

type KeyFlag = 'upArrow' | 'downArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'return' | 'escape' | 'tab';

export interface KeySpec {
  key?: KeyFlag;
  input?: string;
  ctrl?: boolean;
  shift?: boolean;
  meta?: boolean;
}

/** Where a binding applies, as /help groups them. */
export type HelpSection = 'anywhere' | 'prompt' | 'cards' | 'approval' | 'view';

export interface KeyBinding {
  readonly keys: readonly KeySpec[];
  /** What it does, per place; bindings with the same text in a section share a /help row. */
  readonly help?: readonly { readonly in: HelpSection; readonly does: string }[];
}

const SCROLL = 'scroll the transcript (the mouse wheel too, once Alt+M turns it on)';

/** The one table of bindings; /help is generated from it and the dispatcher reads it. */
export const KEYMAP: Readonly<Record<KeyCommand, KeyBinding>> = {
  ctrlC: { keys: [{ input: 'c', ctrl: true }], help: [{ in: 'anywhere', does: 'interrupt the turn; twice on an idle prompt: exit' }] },
  eof: { keys: [{ input: 'd', ctrl: true }], help: [{ in: 'prompt', does: 'exit (on an empty prompt)' }] },
  interrupt: { keys: [{ key: 'escape' }], help: [{ in: 'prompt', does: 'interrupt the running turn' }] },
  cycleMode: { keys: [{ key: 'tab', shift: true }], help: [{ in: 'prompt', does: 'next permission mode (default, accept edits, plan)' }] },
  toggleFocus: {
    keys: [{ key: 'tab', shift: false }, { input: 'o', ctrl: true }],
    help: [
      { in: 'prompt', does: 'select cards (Tab on an empty prompt)' },
      { in: 'cards', does: 'back to the prompt' },
    ],
  },
  pageUp: { keys: [{ key: 'pageUp' }], help: [{ in: 'prompt', does: SCROLL }] },
  pageDown: { keys: [{ key: 'pageDown' }], help: [{ in: 'prompt', does: SCROLL }] },
  lineUp: { keys: [{ key: 'upArrow', shift: true }], help: [{ in: 'prompt', does: SCROLL }] },
  lineDown: { keys: [{ key: 'downArrow', shift: true }], help: [{ in: 'prompt', does: SCROLL }] },
  top: { keys: [{ key: 'home' }], help: [{ in: 'prompt', does: 'to the top / the bottom of the transcript (empty prompt)' }] },
  bottom: { keys: [{ key: 'end' }], help: [{ in: 'prompt', does: 'to the top / the bottom of the transcript (empty prompt)' }] },
  up: {
    keys: [{ key: 'upArrow', shift: false }],
    help: [
      { in: 'prompt', does: 'earlier / later prompts, or lines of the draft' },
      { in: 'cards', does: 'move the selection' },
      { in: 'approval', does: 'choose' },
    ],
  },
  down: {
    keys: [{ key: 'downArrow', shift: false }],
    help: [
      { in: 'prompt', does: 'earlier / later prompts, or lines of the draft' },
      { in: 'cards', does: 'move the selection' },
      { in: 'approval', does: 'choose' },
    ],
  },
  confirm: {
    keys: [{ key: 'return' }],
    help: [
      { in: 'prompt', does: 'send (queued while a turn runs)' },
      { in: 'approval', does: 'answer with the selected choice (with a draft typed: queue the draft)' },
    ],
  },
  newline: {
    // Ctrl+J arrives as a line feed.
    keys: [{ key: 'return', shift: true }, { key: 'return', meta: true }, { key: 'return', ctrl: true }, { input: '\n' }],
    help: [{ in: 'prompt', does: 'new line' }],
  },
  toggle: { keys: [{ input: ' ' }], help: [{ in: 'cards', does: 'fold / unfold the card' }] },
  complete: { keys: [{ key: 'tab', shift: false }], help: [{ in: 'prompt', does: 'complete the command (in the / list)' }] },
  back: {
    keys: [{ key: 'escape' }],
    help: [
      { in: 'cards', does: 'back to the prompt' },
      { in: 'approval', does: 'no, and stop the turn' },
    ],
  },
  redraw: { keys: [{ input: 'l', ctrl: true }], help: [{ in: 'anywhere', does: 'redraw the screen' }] },
  open: { keys: [{ key: 'return' }], help: [{ in: 'cards', does: 'full view of the card (output, file, diff)' }] },
  viewFull: { keys: [{ input: 'v' }], help: [{ in: 'approval', does: 'full view of what it asks (the approval waits)' }] },
  viewerClose: { keys: [{ input: 'q' }, { key: 'escape' }], help: [{ in: 'view', does: 'back' }] },
  viewerLineUp: { keys: [{ key: 'upArrow' }, { input: 'k' }], help: [{ in: 'view', does: 'a line up / down' }] },
  viewerLineDown: { keys: [{ key: 'downArrow' }, { input: 'j' }], help: [{ in: 'view', does: 'a line up / down' }] },
  viewerPageUp: { keys: [{ key: 'pageUp' }, { input: 'b' }], help: [{ in: 'view', does: 'a page up / down' }] },
  viewerPageDown: { keys: [{ key: 'pageDown' }, { input: ' ' }], help: [{ in: 'view', does: 'a page up / down' }] },
  viewerTop: { keys: [{ key: 'home' }, { input: 'g' }], help: [{ in: 'view', does: 'top / bottom' }] },
  viewerBottom: { keys: [{ key: 'end' }, { input: 'G' }], help: [{ in: 'view', does: 'top / bottom' }] },
  search: { keys: [{ input: '/' }], help: [{ in: 'view', does: 'search (Enter finds)' }] },
  nextMatch: { keys: [{ input: 'n' }], help: [{ in: 'view', does: 'next / previous match' }] },
  prevMatch: { keys: [{ input: 'N' }], help: [{ in: 'view', does: 'next / previous match' }] },
  historySearch: { keys: [{ input: 'r', ctrl: true }], help: [{ in: 'prompt', does: 'search earlier prompts (type to narrow, Ctrl+R older, Enter takes it, Esc cancels)' }] },
  clearDraft: { keys: [{ key: 'escape' }], help: [{ in: 'prompt', does: 'twice: clear the draft (kept in history: ↑ brings it back)' }] },
  rewind: { keys: [{ key: 'escape' }], help: [{ in: 'prompt', does: 'twice on an empty prompt: rewind to an earlier prompt (/rewind)' }] },
  editInEditor: { keys: [{ input: 'g', ctrl: true }], help: [{ in: 'prompt', does: 'edit the prompt in $VISUAL/$EDITOR (saved text comes back as the draft)' }] },
  toggleMouse: {
    keys: [{ input: 'm', meta: true }],
    help: [{ in: 'anywhere', does: "mouse wheel scrolling on/off (off at start: the terminal's own selection works; when on, Shift-drag selects)" }],
  },
};

export function matches(spec: KeySpec, input: string, key: Key): boolean {
  if (spec.key && !key[spec.key]) return false;
  if (spec.input !== undefined && input !== spec.input) return false;
  if (spec.ctrl !== undefined && key.ctrl !== spec.ctrl) return false;
  if (spec.ctrl === undefined && spec.input !== undefined && key.ctrl) return false;
  if (spec.shift !== undefined && key.shift !== spec.shift) return false;
  if (spec.meta !== undefined && key.meta !== spec.meta) return false;
  return true;
}

// The table in force: the defaults, or with the user's keybindings.json applied at start-up.
let active: Readonly<Record<KeyCommand, KeyBinding>> = KEYMAP;

/** Puts a key table in force (start-up, with the user's bindings; tests put the defaults back). */
export function setActiveKeymap(keymap: Readonly<Record<KeyCommand, KeyBinding>>): void {
  active = keymap;
}

export function activeKeymap(): Readonly<Record<KeyCommand, KeyBinding>> {
  return active;
}

export function is(command: KeyCommand, input: string, key: Key): boolean {
  return active[command].keys.some((spec) => matches(spec, input, key));
}
