import { paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import type { ToolItem } from '../store/types.js';
import { createAgentRenderer } from './agent-renderer.js';
import { displayBody, displaySummary } from './display-renderers.js';

/** How one tool's card reads. Later tools (and plugins) register their own. */
export interface ToolRenderer {
  /** The argument that identifies the call in the header: a path, a command, a pattern. */
  keyArg(input: Record<string, unknown>): string;
  /** A short note after the header once done (the range read, the replacements made). */
  summary?(item: ToolItem): string | undefined;
  /** The body under the header, already wrapped to `width`. */
  body(item: ToolItem, width: number, theme: Theme): string[];
}

const TAIL_LINES = 6;
/** How to see what a card leaves out: select it, then Enter opens the full view. */
const SEE_ALL = ' · Tab, Enter shows all';
const ERROR_LINES = 12;

function str(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);
}

function tail(text: string, width: number, theme: Theme, count: number): string[] {
  const lines = wrapText(text.replace(/\n+$/, ''), width);
  const shown = lines.slice(-count);
  const hidden = lines.length - shown.length;
  return [...(hidden > 0 ? [paint(theme, 'muted', `… ${hidden} earlier lines${SEE_ALL}`)] : []), ...shown.map((l) => paint(theme, 'muted', l))];
}

function head(text: string, width: number, theme: Theme, count: number, token: 'muted' | 'error'): string[] {
  const lines = wrapText(text.replace(/\n+$/, ''), width);
  const shown = lines.slice(0, count).map((l) => paint(theme, token, l));
  return lines.length > count ? [...shown, paint(theme, 'muted', `… ${lines.length - count} more lines${SEE_ALL}`)] : shown;
}

/** Errors and denials read the same for every tool. */
function failureBody(item: ToolItem, width: number, theme: Theme): string[] | undefined {
  if (item.status === 'denied') return head(`Denied: ${item.deniedReason ?? 'declined'}`, width, theme, ERROR_LINES, 'error');
  if (item.status === 'error') return head(item.result ?? 'failed', width, theme, ERROR_LINES, 'error');
  return undefined;
}

const bash: ToolRenderer = {
  keyArg: (input) => str(input['command']).split('\n')[0] ?? '',
  body(item, width, theme) {
    if (item.status === 'running') return item.progress ? tail(item.progress, width, theme, TAIL_LINES) : [];
    return failureBody(item, width, theme) ?? (item.result ? tail(item.result, width, theme, TAIL_LINES) : []);
  },
};

/** read_file, edit_file, write_file: what they did comes from their display (see display-renderers.ts). */
const file: ToolRenderer = {
  keyArg: (input) => str(input['path']),
  summary: (item) => displaySummary(item.display),
  body(item, width, theme) {
    return failureBody(item, width, theme) ?? displayBody(item.display, width, theme) ?? [];
  },
};

const generic: ToolRenderer = {
  keyArg: (input) => str(input['path'] ?? input['pattern'] ?? input['command'] ?? input['url'] ?? input['query'] ?? ''),
  body(item, width, theme) {
    return failureBody(item, width, theme) ?? (item.result ? head(item.result, width, theme, 8, 'muted') : []);
  },
};

const registry = new Map<string, ToolRenderer>([
  ['bash', bash],
  // A `!` command the user ran (components/store/reduce-shell.ts): read like a bash call.
  ['!', bash],
  ['edit_file', file],
  ['write_file', file],
  ['read_file', file],
  ['web_search', { ...file, keyArg: (input) => str(input['query']) }],
  ['web_fetch', { ...file, keyArg: (input) => str(input['url']) }],
  ['agent', createAgentRenderer((tool) => toolRenderer(tool.name).keyArg(inputRecord(tool.input)))],
]);

export function registerToolRenderer(name: string, renderer: ToolRenderer): void {
  registry.set(name, renderer);
}

export function toolRenderer(name: string): ToolRenderer {
  return registry.get(name) ?? generic;
}

export function inputRecord(input: unknown): Record<string, unknown> {
  return typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
}
