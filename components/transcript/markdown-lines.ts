import { createMarkdownStream, renderCached } from '../markdown/streaming-markdown.js';
import type { MarkdownTheme } from '../markdown/render-markdown.js';
import type { Theme } from '../theme/theme.js';
import { clipLine } from '../theme/ansi.js';

type MarkdownStream = ReturnType<typeof createMarkdownStream>;

function markdownTheme(theme: Theme): MarkdownTheme {
  return theme.color ? theme.name : 'none';
}

/**
 * Markdown for assistant items: finished messages through the shared per-width cache,
 * the streaming one through an incremental stream fed only the new text.
 */
export function createMarkdownLines(): {
  finished(id: string, text: string, width: number, theme: Theme): string[];
  /** Lines already clipped to `width`. */
  streaming(id: string, text: string, width: number, theme: Theme): string[];
  forget(id: string): void;
} {
  const streams = new Map<string, { stream: MarkdownStream; consumed: number; width: number; theme: Theme }>();
  return {
    finished(id, text, width, theme) {
      streams.delete(id);
      return renderCached(id, text, width, markdownTheme(theme));
    },
    streaming(id, text, width, theme) {
      let entry = streams.get(id);
      if (!entry || entry.theme !== theme || text.length < entry.consumed) {
        entry = { stream: createMarkdownStream(width, markdownTheme(theme), { clip: clipLine }), consumed: 0, width, theme };
        streams.set(id, entry);
      }
      if (entry.width !== width) {
        entry.stream.setWidth(width);
        entry.width = width;
      }
      if (text.length > entry.consumed) {
        entry.stream.append(text.slice(entry.consumed));
        entry.consumed = text.length;
      }
      // Clipped to the width as each block renders: the whole answer is not re-clipped every frame.
      return entry.stream.lines();
    },
    forget(id) {
      streams.delete(id);
    },
  };
}
