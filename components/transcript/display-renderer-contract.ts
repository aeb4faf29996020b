import type { ToolDisplay } from '../../src/tools/display.js';
import type { Theme } from '../theme/theme.js';

/** How one kind of tool display reads on its card. Each part is optional: a display may only inform. */
export interface DisplayRenderer<D extends ToolDisplay> {
  /** A short note after the header once done (the range read, the replacements made). */
  summary?(display: D): string | undefined;
  /** The body of a finished card that did not fail, already wrapped to `width`. */
  body?(display: D, width: number, theme: Theme): string[];
  /** The whole diff, for the full view. */
  diff?(display: D): string | undefined;
}
