import { displayPath } from '../../src/tools/paths.js';
import { codeChanges, rewindCode } from '../../src/session/rewind.js';
import type { RewindDialog } from '../store/types.js';
import type { AppContext } from './app-context.js';

type Ctx = Pick<AppContext, 'store' | 'session' | 'print'>;

/** The three things a picked prompt can restore, in the dialog's order. */
export const REWIND_OPTIONS = [
  { code: true, conversation: true, label: 'Restore code and conversation', command: 'rewindAll' },
  { code: false, conversation: true, label: 'Restore conversation only', command: 'rewindConversation' },
  { code: true, conversation: false, label: 'Restore code only', command: 'rewindCode' },
] as const;

/** Opens the list of earlier prompts (Esc Esc on an empty prompt, /rewind), the newest selected. */
export function openRewind(deps: Ctx): void {
  const print = deps.print;
  if (deps.store.getSnapshot().busy) return print('A turn is running; press Esc to interrupt it, then rewind.', 'warning');
  const points = deps.session.rewindPoints;
  if (points.length === 0) return print('No earlier prompt to rewind to (since the start, /clear or the last compaction).', 'info');
  deps.store.dispatch({ type: 'dialog', dialog: { kind: 'rewind', points, index: points.length - 1 } });
}

/** The picked prompt's code changes, for the dialog to list before anything is restored. */
export function pickRewindPoint(dialog: RewindDialog, ctx: Pick<AppContext, 'session'>): RewindDialog {
  const point = dialog.points[dialog.index];
  if (!point) return dialog;
  const where = ctx.session.checkpoints;
  const files = where ? codeChanges(where.recorder, point).map((c) => ({ path: displayPath(where.cwd, c.path), action: c.action })) : [];
  return { ...dialog, chosen: { turn: point.turn, id: point.id, text: point.text, files, option: 0 } };
}

/**
 * Restores code (newest change first), then the conversation; the rewound prompt comes back as the
 * draft. What happened is told after the conversation is cut, so the transcript keeps it.
 */
export async function runRewind(prompt: { turn: number; id: number; text: string }, option: (typeof REWIND_OPTIONS)[number], deps: Ctx): Promise<void> {
  const { turn, text } = prompt;
  const print = deps.print;
  const told: { message: string; level: 'info' | 'warning' }[] = [];
  if (option.code) {
    const where = deps.session.checkpoints;
    if (!where) told.push({ message: 'No checkpoints in this session (it is not saved); files were left as they are.', level: 'warning' });
    else {
      const outcomes = await rewindCode(where.recorder, where.cwd, prompt);
      const refused = outcomes.filter((o) => !o.ok);
      for (const o of refused) told.push({ message: `${displayPath(where.cwd, o.path)}: ${o.message}`, level: 'warning' });
      const done = outcomes.length - refused.length;
      const summary = outcomes.length === 0 ? 'No file was changed by write_file or edit_file since that prompt.' : `Restored ${done} of ${outcomes.length} file${outcomes.length === 1 ? '' : 's'} to before that prompt.`;
      told.push({ message: summary, level: 'info' });
    }
  }
  if (option.conversation && (await deps.session.rewind(turn))) {
    deps.store.dispatch({ type: 'editor', editor: { text, cursor: text.length, pastes: [] } });
    told.push({ message: 'Conversation rewound to before that prompt (it is back in the prompt to edit or send).', level: 'info' });
  }
  for (const t of told) print(t.message, t.level);
}
