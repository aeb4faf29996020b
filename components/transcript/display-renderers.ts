import type { DisplayOf, ToolDisplay, ToolDisplayKind } from '../../src/tools/display.js';
import { paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { diffLines } from './diff-lines.js';
import type { DisplayRenderer } from './display-renderer-contract.js';
import { webFetchRenderer, webSearchRenderer } from './web-renderers.js';

const DIFF_LINES = 40;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function diffBody(diff: string, width: number, theme: Theme): string[] {
  return diff ? diffLines(diff, width, theme, DIFF_LINES) : [];
}

const readFile: DisplayRenderer<DisplayOf<'read_file'>> = {
  summary: (d) => d.attachment ?? (d.totalLines === 0 ? 'empty' : `lines ${d.startLine}-${d.endLine} of ${d.totalLines}`),
  body: (d, _width, theme) => [paint(theme, 'muted', `read ${readFile.summary?.(d) ?? ''}`)],
};

// The displays that change how their card reads; the others (bash, grep, ...) only inform, and
// their cards read from the result's text. The cards themselves are in tool-cards.ts.
const DISPLAY_RENDERERS: { readonly [K in ToolDisplayKind]?: DisplayRenderer<DisplayOf<K>> } = {
  read_file: readFile,
  edit_file: {
    summary: (d) => plural(d.replacements, 'replacement'),
    body: (d, width, theme) => diffBody(d.diff, width, theme),
    diff: (d) => d.diff,
  },
  write_file: {
    summary: (d) => `${d.created ? 'created' : 'wrote'}, ${plural(d.lines, 'line')}`,
    body: (d, width, theme) => diffBody(d.diff, width, theme),
    diff: (d) => d.diff,
  },
  web_search: webSearchRenderer,
  web_fetch: webFetchRenderer,
};

function rendererOf<D extends ToolDisplay>(display: D): DisplayRenderer<D> {
  // Keyed by kind, so the entry for this display's kind takes this display's type.
  return (DISPLAY_RENDERERS[display.kind] ?? {}) as DisplayRenderer<D>;
}

export function displaySummary(display: ToolDisplay | undefined): string | undefined {
  return display ? rendererOf(display).summary?.(display) : undefined;
}

export function displayBody(display: ToolDisplay | undefined, width: number, theme: Theme): string[] | undefined {
  return display ? rendererOf(display).body?.(display, width, theme) : undefined;
}

/** The full diff a display carries, if any ('' counts as none). */
export function displayDiff(display: ToolDisplay | undefined): string | undefined {
  return (display ? rendererOf(display).diff?.(display) : undefined) || undefined;
}
