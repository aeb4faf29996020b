import type { ShellInfo } from './shell-manager.js';

// What the model reads about a watch (shell-watches.ts): each delivery of new lines, and the one
// last note when the watch is over (the command's stream ended, its timeout expired, it flooded,
// someone stopped it). A watch monitor started ({command}) owns its command: the notes say the
// command was stopped with it.

/** What a note needs to know of its watch. */
export interface NoteWatch {
  shellId: string;
  command: string;
  pattern?: string;
  description?: string;
  /** The watch started the command: ending the watch stopped it. */
  owned?: boolean;
}

/** Why cairn itself stopped a watch: its timeout expired, or it printed more than can be delivered for too long. */
export type WatchCause = 'timeout' | 'flood';

export function clip(command: string): string {
  const line = command.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** "3 s", "5 min", "1.5 min": a duration as the model set it. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 6_000) / 10} min`;
}

export function endText(info: ShellInfo): string {
  if (info.exitCode !== undefined) return `exit code ${info.exitCode}`;
  if (info.signal !== undefined) return `signal ${info.signal}`;
  return 'no exit code';
}

const attr = (text: string): string => clip(text).replace(/"/g, "'");

function what(w: NoteWatch): string {
  return w.pattern !== undefined ? ` matching /${w.pattern}/` : '';
}

function subject(w: NoteWatch): string {
  const desc = w.description !== undefined ? ` "${w.description.replace(/\s+/g, ' ').trim()}"` : '';
  return w.owned ? `the command you are monitoring${desc} (${w.shellId}: ${clip(w.command)})` : `the background shell ${w.shellId} you are watching`;
}

/** One delivery: the new lines, and how many the rate limit left out since the last one. */
export function deliveryNote(w: NoteWatch, lines: readonly string[], dropped: number): string {
  const droppedText = dropped > 0 ? `; ${dropped} more dropped by the rate limit (read them with bash_output)` : '';
  return `<shell-watch shell="${w.shellId}" command="${attr(w.command)}">\nNew output from ${subject(w)}${what(w)} (${lines.length} line${lines.length === 1 ? '' : 's'}${droppedText}):\n${lines.join('\n')}\n</shell-watch>`;
}

export interface EndOfWatch {
  status: 'ended' | 'stopped';
  /** ended: how the shell ended ("failed with exit code 3"); stopped: why. */
  reason: string;
  cause?: WatchCause;
  /** Lines that waited for a delivery. */
  lines: readonly string[];
  dropped: number;
  /** In all, for a flood. */
  suppressed: number;
  floodMs: number;
}

function endSentence(w: NoteWatch, end: EndOfWatch): string {
  const cmd = `${w.shellId} (${clip(w.command)})`;
  // Lines the rate limit left out since the last delivery (a flood tells its own count).
  const drops = end.dropped > 0 && end.cause !== 'flood' ? ` (${end.dropped} line${end.dropped === 1 ? '' : 's'} dropped by the rate limit: read them with bash_output)` : '';
  if (end.status === 'ended') {
    return w.owned ? `The command you were monitoring, ${cmd}, ${end.reason}: stream ended, and the watch is over${drops}.` : `The watched background shell ${cmd} ${end.reason}; the watch is over${drops}.`;
  }
  const stopped = w.owned ? 'the command was stopped' : 'the watch was stopped; the shell keeps running (kill_shell stops it)';
  if (end.cause === 'timeout') {
    return `The monitor of ${cmd} expired: ${end.reason}, so ${stopped}${drops}. If you still need it, start it again with a longer timeout_ms or persistent: true.`;
  }
  if (end.cause === 'flood') {
    return `Stopped monitoring ${cmd}: it printed more lines than can be delivered for ${duration(end.floodMs)} straight (${end.suppressed} suppressed), so ${stopped}. Filter its output to the lines that matter (pattern, or grep --line-buffered in the command) and start the watch again.`;
  }
  return w.owned ? `Stopped monitoring ${cmd}: ${end.reason}; the command was stopped${drops}.` : `Stopped watching the background shell ${w.shellId}: ${end.reason}${drops}.`;
}

/** The one last note of a watch. */
export function endNote(w: NoteWatch, end: EndOfWatch): string {
  const body = end.lines.length > 0 ? `\nIts last new lines:\n${end.lines.join('\n')}` : '';
  return `<shell-watch shell="${w.shellId}" status="${end.status}">\n${endSentence(w, end)}${body}\n</shell-watch>`;
}
