import type { TranscriptItem } from '../store/types.js';
import type { ScrollbackMode } from '../theme/tui-settings.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';
import { answers } from './copy-text.js';
import { cardTitle } from './tool-cards.js';

/**
 * The conversation as plain text for the terminal's scrollback after exit: one logical line per
 * line of text (the terminal soft-wraps them, so a resize rewraps and a copy has no hard breaks),
 * no colour, no gutter, no box drawing. Tool calls are one line each; their output stays in the
 * session file.
 */
export function scrollbackText(items: readonly TranscriptItem[], mode: ScrollbackMode): string {
  if (mode === 'none') return '';
  if (mode === 'last-answer') {
    const last = answers(items)[0];
    return last === undefined ? '' : `${clean(last)}\n\n`;
  }
  const blocks: string[] = [];
  for (const item of items) {
    const block = itemText(item);
    if (block !== undefined) blocks.push(block);
  }
  return blocks.length ? `${blocks.join('\n\n')}\n\n` : '';
}

function itemText(item: TranscriptItem): string | undefined {
  switch (item.kind) {
    case 'user':
      return clean(item.text)
        .split('\n')
        .map((line, i) => `${i === 0 ? '> ' : '  '}${line}`)
        .join('\n');
    case 'assistant':
      return item.text.trim() ? clean(item.text.trim()) : undefined;
    case 'tool': {
      return clean(`[${item.name} ${cardTitle(item)}: ${item.status}]`);
    }
    case 'notice':
      // Start-up warnings and command output were seen on screen; errors may explain how it ended.
      return item.level === 'error' ? clean(`[error: ${item.message}]`) : undefined;
    case 'terminal':
      return clean(`[turn ended: ${item.reason}${item.error ? `: ${item.error}` : ''}]`);
    case 'compact':
      return `[conversation compacted: ${item.tokensBefore} -> ${item.tokensAfter} tokens]`;
    default:
      return undefined;
  }
}

/** The model's text may carry escape sequences; the user's terminal gets none of them. */
function clean(text: string): string {
  return stripTerminalControls(text.replace(/\r\n?/g, '\n'));
}
