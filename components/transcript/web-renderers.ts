import type { DisplayOf } from '../../src/tools/display.js';
import { MAX_TITLE_CHARS } from '../../src/tools/web-fetch-display.js';
import { oneLine } from '../../src/web/untrusted.js';
import { clipLine, paint } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import type { DisplayRenderer } from './display-renderer-contract.js';

const SHOWN_RESULTS = 3;

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** web_search: the result count beside the query; the first titles and URLs below, the rest in the full view. */
export const webSearchRenderer: DisplayRenderer<DisplayOf<'web_search'>> = {
  summary: (d) => `${d.results.length} result${d.results.length === 1 ? '' : 's'} (${d.backend})`,
  body(d, width, theme: Theme) {
    const lines = d.results.slice(0, SHOWN_RESULTS).flatMap((r, i) => [
      clipLine(`${i + 1}. ${r.title}`, width),
      paint(theme, 'muted', clipLine(`   ${r.url}`, width)),
    ]);
    const more = d.results.length - SHOWN_RESULTS;
    return more > 0 ? [...lines, paint(theme, 'muted', `… ${more} more · Tab, Enter shows all`)] : lines;
  },
};

/** web_fetch: status, type and size; each redirect and where it ended. */
export const webFetchRenderer: DisplayRenderer<DisplayOf<'web_fetch'>> = {
  summary: (d) =>
    d.status === undefined
      ? undefined
      : [`HTTP ${d.status}`, d.contentType?.split(';')[0], d.bytes !== undefined ? sizeText(d.bytes) : undefined, d.truncated ? 'truncated' : undefined]
          .filter((p) => p !== undefined)
          .join(', '),
  body(d, width, theme: Theme) {
    const hops = d.hops.map((h) => paint(theme, 'muted', clipLine(`↪ ${h}`, width)));
    // One line however it was stored: a session written before titles were cut may hold any.
    const title = d.title ? [clipLine(oneLine(d.title, MAX_TITLE_CHARS), width)] : [];
    const final = d.finalUrl && d.finalUrl !== d.url && d.hops.length === 0 ? [paint(theme, 'muted', clipLine(`→ ${d.finalUrl}`, width))] : [];
    return [...hops, ...final, ...title];
  },
};
