import type { SessionSummary } from '../../src/session/session-list.js';
import type { Dialog } from './types.js';

export type ResumeDialog = Extract<Dialog, { kind: 'resume' }>;

export function resumeDialog(sessions: readonly SessionSummary[], now: number, currentId?: string): ResumeDialog {
  return { kind: 'resume', sessions, filter: '', index: 0, now, ...(currentId !== undefined ? { currentId } : {}) };
}

/** Sessions whose first prompt, id or name contains every word of the filter, in list order (newest first). */
export function filterSessions(sessions: readonly SessionSummary[], filter: string): SessionSummary[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...sessions];
  return sessions.filter((s) => {
    const hay = `${s.firstPrompt} ${s.id} ${s.name ?? ''}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

export function pickerMatches(dialog: ResumeDialog): SessionSummary[] {
  return filterSessions(dialog.sessions, dialog.filter);
}

/** The highlighted session, the index clamped to what the filter left. */
export function pickerSelection(dialog: ResumeDialog): { index: number; session: SessionSummary | undefined } {
  const matches = pickerMatches(dialog);
  const index = matches.length === 0 ? 0 : Math.max(0, Math.min(dialog.index, matches.length - 1));
  return { index, session: matches[index] };
}

export function movePicker(dialog: ResumeDialog, delta: number): ResumeDialog {
  const count = pickerMatches(dialog).length;
  if (count === 0) return dialog;
  const { index } = pickerSelection(dialog);
  return { ...dialog, index: (index + delta + count) % count };
}

/** Typing narrows the list: the selection goes back to the best (newest) match. */
export function setPickerFilter(dialog: ResumeDialog, filter: string): ResumeDialog {
  return { ...dialog, filter, index: 0 };
}

/** "just now", "42s ago", "3m ago", "5h ago", "2d ago", then the date. */
export function formatAge(then: Date, now: number): string {
  const s = Math.max(0, Math.floor((now - then.getTime()) / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s}s ago`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ago`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ago`;
  const d = Math.floor(h / 24);
  if (d < 30) return `${d}d ago`;
  return then.toISOString().slice(0, 10);
}
