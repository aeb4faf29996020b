import type { Key } from 'ink';
import { displayPath } from '../../src/tools/paths.js';
import { codeChanges, rewindCode } from '../../src/session/rewind.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { RewindDialog } from '../store/types.js';
import type { KeyDeps } from './dispatch.js';
import { is, isAnswer } from './keymap.js';

/** The three things a picked prompt can restore, in the dialog's order. */
export const REWIND_OPTIONS = [
  { code: true, conversation: true, label: 'Restore code and conversation', command: 'rewindAll' },
  { code: false, conversation: true, label: 'Restore conversation only', command: 'rewindConversation' },
  { code: true, conversation: false, label: 'Restore code only', command: 'rewindCode' },
] as const;

type Deps = Pick<KeyDeps, 'store' | 'session' | 'commandContext'>;

/** Opens the list of earlier prompts (Esc Esc on an empty prompt, /rewind), the newest selected. */
export function openRewind(deps: Deps): void {
  const print = deps.commandContext.print;
  if (deps.store.getSnapshot().busy) return print('A turn is running; press Esc to interrupt it, then rewind.', 'warning');
  const points = deps.session.rewindPoints;
  if (points.length === 0) return print('No earlier prompt to rewind to (since the start, /clear or the last compaction).', 'info');
  deps.store.dispatch({ type: 'dialog', dialog: { kind: 'rewind', points, index: points.length - 1 } });
}

export function rewindKey(input: string, key: Key, dialog: RewindDialog, deps: Deps): void {
  const set = (next: RewindDialog): void => deps.store.dispatch({ type: 'dialog', dialog: next });
  const close = (): void => deps.store.dispatch({ type: 'dialog', dialog: undefined });
  const { chosen } = dialog;
  if (!chosen) {
    if (is('back', input, key)) return close();
    if (is('up', input, key)) return set({ ...dialog, index: Math.max(0, dialog.index - 1) });
    if (is('down', input, key)) return set({ ...dialog, index: Math.min(dialog.points.length - 1, dialog.index + 1) });
    const point = dialog.points[dialog.index];
    if (!is('confirm', input, key) || !point) return;
    const where = deps.session.checkpoints;
    const files = where ? codeChanges(where.recorder, point).map((c) => ({ path: displayPath(where.cwd, c.path), action: c.action })) : [];
    return set({ ...dialog, chosen: { turn: point.turn, id: point.id, text: point.text, files, option: 0 } });
  }
  if (is('back', input, key)) return set({ kind: 'rewind', points: dialog.points, index: dialog.index });
  if (is('up', input, key)) return set({ ...dialog, chosen: { ...chosen, option: Math.max(0, chosen.option - 1) } });
  if (is('down', input, key)) return set({ ...dialog, chosen: { ...chosen, option: Math.min(REWIND_OPTIONS.length - 1, chosen.option + 1) } });
  const picked = REWIND_OPTIONS.findIndex((o) => isAnswer(o.command, input, key));
  if (picked < 0 && !is('confirm', input, key)) return;
  const option = REWIND_OPTIONS[picked < 0 ? chosen.option : picked];
  if (!option) return;
  close();
  runRewind(chosen, option, deps).catch((error: unknown) => deps.commandContext.print(`Rewind failed: ${errorMessage(error)}`, 'error'));
}

/**
 * Restores code (newest change first), then the conversation; the rewound prompt comes back as the
 * draft. What happened is told after the conversation is cut, so the transcript keeps it.
 */
async function runRewind(prompt: { turn: number; id: number; text: string }, option: (typeof REWIND_OPTIONS)[number], deps: Deps): Promise<void> {
  const { turn, text } = prompt;
  const print = deps.commandContext.print;
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
