import type { AgentEvent } from '../../src/events.js';

/** CAIRN_BELL=0 (or false/off) turns the bell and the desktop notification off. */
export function bellEnabled(env: NodeJS.ProcessEnv): boolean {
  const v = (env['CAIRN_BELL'] ?? '').toLowerCase();
  return !(v === '0' || v === 'false' || v === 'off' || v === 'no');
}

/** BEL, then OSC 9 (a desktop notification in terminals that support it). */
export function bellSequence(text: string): string {
  return `\x07\x1b]9;${text.replace(/[\x00-\x1f\x7f]/g, ' ')}\x07`;
}

/** Rings when an approval starts waiting and when a turn ends: the moments the user is needed. */
export function bellFor(event: AgentEvent): string | undefined {
  if (event.type === 'permission_request') return bellSequence(`cairn: approve ${event.name}?`);
  // The person who pressed Esc is at the keyboard already: no bell for their own interrupt.
  if (event.type === 'terminal' && event.reason === 'aborted') return undefined;
  if (event.type === 'terminal') return bellSequence(event.reason === 'completed' ? 'cairn: done' : `cairn: turn ended (${event.reason})`);
  return undefined;
}
