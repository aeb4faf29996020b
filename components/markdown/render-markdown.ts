import { stripTerminalControls } from '../../src/util/terminal-text.js';
import { expandTabs, fitLines, isBlank } from './fit-lines.js';
import type { MarkdownEngine } from './markdown-engine.js';
import { markdownStyles } from './markdown-styles.js';
import type { MarkdownTheme } from './markdown-styles.js';

export type { MarkdownTheme } from './markdown-styles.js';

// Markdown to terminal lines. The parser is imported lazily (`loadMarkdown`) so the app paints
// its first frame without paying for it; until then text is shown plain, wrapped to width.

let engine: MarkdownEngine | undefined;
let loading: Promise<void> | undefined;
let version = 0;
const listeners = new Set<() => void>();

function changed(): void {
  version++;
  for (const listener of [...listeners]) listener();
}

export function loadMarkdown(): Promise<void> {
  loading ??= import('./markdown-engine.js').then((m) => {
    engine = m.createMarkdownEngine();
    engine.onChange(changed);
    changed();
  });
  return loading;
}

/**
 * Changes when the renderer changes, so caches can tell: plain fallback -> markdown, and when a
 * code block's language, drawn plain while it loaded, has loaded (code-highlight.ts).
 */
export function markdownVersion(): number {
  return version;
}

/**
 * Calls `listener` after `markdownVersion()` changes, for a view to draw again what it shows
 * (nothing else re-renders a finished transcript). Returns an unsubscribe.
 */
export function onMarkdownChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isMarkdownLoaded(): boolean {
  return engine !== undefined;
}

/** Lines with SGR styles, each at most `width` columns; no leading/trailing/doubled blank lines. */
export function renderMarkdown(text: string, width: number, theme: MarkdownTheme): string[] {
  const w = Math.max(1, Math.floor(width));
  const raw = engine ? engine.toText(text, w, theme) : expandTabs(stripTerminalControls(text.replace(/\r\n?/g, '\n')));
  return fitRendered(raw, w, theme);
}

/** The parser's own output for `text` (before it is fitted to the width), or undefined while it loads. */
export function markdownSource(text: string, width: number, theme: MarkdownTheme): string | undefined {
  return engine?.toText(text, Math.max(1, Math.floor(width)), theme);
}

/** The parser's output fitted to the width: what renderMarkdown returns for the text it came from. */
export function fitRendered(raw: string, width: number, theme: MarkdownTheme): string[] {
  return fitLines(tidy(raw.split('\n')), Math.max(1, Math.floor(width)), markdownStyles(theme).gutter);
}

/** Trailing spaces gone, blank runs collapsed to one, none at the ends. */
function tidy(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) {
    if (isBlank(line)) {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
    } else out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}
