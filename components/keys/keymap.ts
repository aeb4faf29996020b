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
  | 'toggle'
  | 'complete'
  | 'back'
  | 'redraw'
  | 'open'
  | 'viewFull'
  | 'viewerClose'
  | 'search'
  | 'nextMatch'
  | 'prevMatch';

type KeyFlag = 'upArrow' | 'downArrow' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'return' | 'escape' | 'tab';

export interface KeySpec {
  key?: KeyFlag;
  input?: string;
  ctrl?: boolean;
  shift?: boolean;
}

/** The one table of bindings; /help and the dispatcher both read it. */
export const KEYMAP: Readonly<Record<KeyCommand, readonly KeySpec[]>> = {
  ctrlC: [{ input: 'c', ctrl: true }],
  eof: [{ input: 'd', ctrl: true }],
  interrupt: [{ key: 'escape' }],
  cycleMode: [{ key: 'tab', shift: true }],
  toggleFocus: [{ key: 'tab', shift: false }, { input: 'o', ctrl: true }],
  pageUp: [{ key: 'pageUp' }],
  pageDown: [{ key: 'pageDown' }],
  lineUp: [{ key: 'upArrow', shift: true }],
  lineDown: [{ key: 'downArrow', shift: true }],
  top: [{ key: 'home' }],
  bottom: [{ key: 'end' }],
  up: [{ key: 'upArrow', shift: false }],
  down: [{ key: 'downArrow', shift: false }],
  confirm: [{ key: 'return' }],
  toggle: [{ input: ' ' }],
  complete: [{ key: 'tab', shift: false }],
  back: [{ key: 'escape' }],
  redraw: [{ input: 'l', ctrl: true }],
  open: [{ key: 'return' }],
  viewFull: [{ input: 'v' }],
  viewerClose: [{ input: 'q' }, { key: 'escape' }],
  search: [{ input: '/' }],
  nextMatch: [{ input: 'n' }],
  prevMatch: [{ input: 'N' }],
};

export function matches(spec: KeySpec, input: string, key: Key): boolean {
  if (spec.key && !key[spec.key]) return false;
  if (spec.input !== undefined && input !== spec.input) return false;
  if (spec.ctrl !== undefined && key.ctrl !== spec.ctrl) return false;
  if (spec.ctrl === undefined && spec.input !== undefined && key.ctrl) return false;
  if (spec.shift !== undefined && key.shift !== spec.shift) return false;
  return true;
}

export function is(command: KeyCommand, input: string, key: Key): boolean {
  return KEYMAP[command].some((spec) => matches(spec, input, key));
}
