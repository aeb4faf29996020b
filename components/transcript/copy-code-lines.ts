import type { Dialog } from '../store/types.js';
import { bold, clipLine, inverse, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

type CopyCodeDialog = Extract<Dialog, { kind: 'copyCode' }>;

/** One row per block: its language and first line, so the user can tell them apart. */
export function copyCodeLines(dialog: CopyCodeDialog, width: number, theme: Theme, maxRows: number): string[] {
  const title = `${bold('Copy a code block')}${paint(theme, 'muted', '  ↑↓ select · Enter copy · Esc close')}`;
  const room = Math.max(1, maxRows - 2);
  const first = Math.max(0, Math.min(dialog.index - room + 1, dialog.blocks.length - room));
  const shown = dialog.blocks.slice(first, first + room);
  const rows = shown.map((block, i) => {
    const selected = first + i === dialog.index;
    const lines = block.text.split('\n');
    const head = (lines.find((l) => l.trim() !== '') ?? '').trim() || '(empty)';
    const size = `${lines.length} line${lines.length === 1 ? '' : 's'}`;
    const line = clipLine(`${selected ? '›' : ' '} ${(block.lang || 'text').padEnd(10)} ${size.padStart(9)}  ${head}`, width);
    return selected ? inverse(line) : line;
  });
  const hidden = dialog.blocks.length - shown.length;
  return [title, ...rows, ...(hidden > 0 ? [paint(theme, 'muted', `  … ${hidden} more`)] : [])];
}
