import { boundKeyLabel } from '../keys/key-help.js';
import { REWIND_OPTIONS } from '../actions/rewind.js';
import type { RewindDialog } from '../store/types.js';
import { bold, clipLine, inverse, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

const firstLine = (text: string): string => (text.split('\n')[0] ?? '').trim() || '(empty prompt)';

/** The rewind dialog: the earlier prompts, then for the picked one the files that would change and the three choices. */
export function rewindLines(dialog: RewindDialog, width: number, theme: Theme, maxRows: number): string[] {
  const { chosen } = dialog;
  if (!chosen) {
    const title = `${bold('Rewind to before a prompt')}${paint(theme, 'muted', '  ↑↓ select · Enter choose · Esc close')}`;
    const room = Math.max(1, maxRows - 1);
    const first = Math.max(0, Math.min(dialog.index - room + 1, dialog.points.length - room));
    const rows = dialog.points.slice(first, first + room).map((p, i) => {
      const selected = first + i === dialog.index;
      const line = clipLine(`${selected ? '›' : ' '} ${firstLine(p.text)}`, width);
      return selected ? inverse(line) : line;
    });
    return [title, ...rows];
  }
  const head = `${bold('Rewind to before:')} ${firstLine(chosen.text)}`;
  const files =
    chosen.files.length === 0
      ? [paint(theme, 'muted', '  Code: no file was changed by write_file, edit_file or bash since.')]
      : [paint(theme, 'muted', `  Code restore changes ${chosen.files.length} file${chosen.files.length === 1 ? '' : 's'}:`), ...chosen.files.map((f) => `    ${f.action === 'delete' ? 'delete ' : 'restore'} ${f.path}`)];
  const options = REWIND_OPTIONS.map((o, i) => {
    const line = clipLine(`${i === chosen.option ? '›' : ' '} ${boundKeyLabel(o.command)}. ${o.label}`, width);
    return i === chosen.option ? inverse(line) : line;
  });
  const help = paint(theme, 'muted', `  ↑↓ or ${REWIND_OPTIONS.map((o) => boundKeyLabel(o.command)).join('/')} · Enter restore · Esc back to the prompts`);
  // The choices always show; the file list gives way when rows are short.
  const room = Math.max(1, maxRows - options.length - 2);
  const shownFiles = files.length > room ? [...files.slice(0, room - 1), paint(theme, 'muted', `    … ${files.length - room + 1} more`)] : files;
  return [head, ...shownFiles, ...options, help];
}
