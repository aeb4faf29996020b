import type { ToolItem } from '../store/types.js';
import type { Theme } from '../theme/theme.js';

/** How one tool's card reads in the transcript and the full view. */
export interface ToolCard {
  /** A short note after the header once done (the range read, the replacements made). */
  summary?(item: ToolItem): string | undefined;
  /**
   * What went wrong in a call that otherwise worked (a command that exited 0 after the sandbox refused
   * its network): the header shows `!` in the warning colour and this text instead of a green ✓.
   */
  warning?(item: ToolItem): string | undefined;
  /** The body under the header of an expanded card, already wrapped to `width`. */
  body(item: ToolItem, width: number, theme: Theme): string[];
  /** Lines under the header while the card is folded (a command's last lines, an unasked edit's diff). */
  folded?(item: ToolItem, width: number, theme: Theme): string[];
  /** The full view: what the call's input holds beyond its subject (the text an edit replaces). */
  details?(input: Record<string, unknown>, width: number, theme: Theme): string[];
  /** Bookkeeping (a checklist, a task, a skill, a schedule): a run of such calls that worked reads as one line. */
  readonly bookkeeping?: true;
}
