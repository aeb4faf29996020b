import type { HookNote, ToolItem } from '../store/types.js';
import { clipLine, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

const LABEL: Record<HookNote['outcome'], string> = {
  blocked: 'blocked',
  injected: 'injected',
  updated: 'changed input',
  message: 'says',
  stopped: 'stopped',
  error: 'failed',
};

const MAX_TEXT = 300;

/** One short line per hook outcome under a card, folded or not: "↳ hook blocked: why · file". */
export function hookNoteLines(item: ToolItem, width: number, theme: Theme): string[] {
  return (item.hookNotes ?? []).map((n) => {
    const text = n.text.replace(/\s+/g, ' ').trim();
    const short = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
    const color = n.outcome === 'blocked' || n.outcome === 'error' || n.outcome === 'stopped' ? 'warning' : 'muted';
    return clipLine(`  ${paint(theme, color, `↳ ${n.hookEvent} hook ${LABEL[n.outcome]}: ${short}`)} ${paint(theme, 'muted', `· ${n.source}`)}`, width);
  });
}
