import { paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import type { ToolItem } from '../store/types.js';
import { SHELL_CARD } from '../store/reduce-shell.js';
import { createAgentRenderer } from './agent-renderer.js';
import { callView, commandDescription } from './call-view-lines.js';
import { failureLines, headLines, tailLines } from './card-previews.js';
import { displayBody, displayDiff, displaySummary } from './display-renderers.js';
import { diffLines } from './diff-lines.js';
import type { ToolCard } from './tool-card-contract.js';

export type { ToolCard } from './tool-card-contract.js';

// The one card registry, keyed by tool name. A card's title and what it is about come from the
// call's view (the tool's own describe, see src/tools/call-view.ts); an entry here says only how
// its body reads. A tool without an entry (an MCP or plugin tool) gets the generic card: its
// output's first lines, its failure in full.

const TAIL_LINES = 6;
const FOLDED_TAIL = 3;
const ERROR_LINES = 12;
const FOLDED_DIFF = 8;

/** Denials read the same for every tool; errors too, unless the card says where it failed. */
function deniedBody(item: ToolItem, width: number, theme: Theme): string[] | undefined {
  return item.status === 'denied' ? headLines(`Denied: ${item.deniedReason ?? 'declined'}`, width, theme, ERROR_LINES, 'error') : undefined;
}

function failureBody(item: ToolItem, width: number, theme: Theme): string[] | undefined {
  return deniedBody(item, width, theme) ?? (item.status === 'error' ? headLines(item.result ?? 'failed', width, theme, ERROR_LINES, 'error') : undefined);
}

/** The command under a card titled by its description. */
function commandLines(item: ToolItem, width: number, theme: Theme): string[] {
  const view = callView(item);
  if (view.subject.kind !== 'command' || commandDescription(view) === undefined) return [];
  return wrapText(`$ ${view.subject.command}`, width)
    .slice(0, 2)
    .map((l) => paint(theme, 'muted', l));
}

/** What the sandbox refused while a command ran, for its header (the command may still have exited 0). */
export function sandboxRefusedWarning(item: ToolItem): string | undefined {
  const refused = item.display?.kind === 'bash' ? item.display.sandboxRefused : undefined;
  if (!refused) return undefined;
  const parts = [
    ...(refused.domains.length > 0 ? [`network refused: ${refused.domains.join(', ')}`] : []),
    ...(refused.paths.length > 0 ? [`write refused: ${refused.paths.join(', ')}`] : []),
  ];
  return parts.length > 0 ? `sandbox ${parts.join('; ')}` : undefined;
}

const bash: ToolCard = {
  warning: sandboxRefusedWarning,
  body(item, width, theme) {
    const command = commandLines(item, width, theme);
    if (item.status === 'running') return [...command, ...(item.progress ? tailLines(item.progress, width, theme, TAIL_LINES) : [])];
    const denied = deniedBody(item, width, theme);
    if (denied) return [...command, ...denied];
    // A failed command shows where it failed; one that worked, how it ended.
    if (item.status === 'error') return [...command, ...failureLines(item.result ?? 'failed', width, theme, ERROR_LINES)];
    return [...command, ...(item.result ? tailLines(item.result, width, theme, TAIL_LINES) : [])];
  },
  folded(item, width, theme) {
    return item.status === 'success' && item.result && item.result !== '(no output)' ? tailLines(item.result, width, theme, FOLDED_TAIL) : [];
  },
};

/** read_file, edit_file, write_file, web_*: what they did comes from their display (see display-renderers.ts). */
const file: ToolCard = {
  summary: (item) => displaySummary(item.display),
  body(item, width, theme) {
    return failureBody(item, width, theme) ?? displayBody(item.display, width, theme) ?? [];
  },
};

const section = (title: string, theme: Theme): string[] => ['', paint(theme, 'muted', `── ${title}`)];
const text = (s: unknown, width: number): string[] => (typeof s === 'string' ? wrapText(s.replace(/\n+$/, ''), width) : []);

/** An edit shows its diff folded too when nobody was asked (a rule or a mode let it run): the user saw no approval. */
const edit: ToolCard = {
  ...file,
  folded(item, width, theme) {
    const diff = item.status === 'success' && item.asked !== true ? displayDiff(item.display) : undefined;
    return diff ? diffLines(diff, width, theme, FOLDED_DIFF) : [];
  },
};

const editFile: ToolCard = {
  ...edit,
  details: (input, width, theme) => [
    ...section('replace', theme),
    ...text(input['old_string'], width).map((l) => paint(theme, 'diffRemove', l)),
    ...section('with', theme),
    ...text(input['new_string'], width).map((l) => paint(theme, 'diffAdd', l)),
  ],
};

const writeFile: ToolCard = { ...edit, details: (input, width, theme) => [...section('file', theme), ...text(input['content'], width)] };

const generic: ToolCard = {
  body(item, width, theme) {
    return failureBody(item, width, theme) ?? (item.result ? headLines(item.result, width, theme, 8, 'muted') : []);
  },
};

const bookkeeping: ToolCard = { ...generic, bookkeeping: true };

/** The review's report: its summary under the header; each finding is a card of its own below (finding-lines.ts). */
const findingsBody: ToolCard['body'] = (item, width, theme) => {
  const failed = failureBody(item, width, theme);
  if (failed) return failed;
  const summary = item.display?.kind === 'report_findings' ? item.display.summary : undefined;
  const hint = item.display?.kind === 'report_findings' && item.display.findings.length > 0 ? ['Tab selects a finding · Enter shows the place · f asks cairn to fix it'] : [];
  return [...(summary ? wrapText(summary, width) : []), ...hint.map((h) => paint(theme, 'muted', h))];
};
const findings: ToolCard = { body: findingsBody, folded: findingsBody };

const registry = new Map<string, ToolCard>([
  ['report_findings', findings],
  ['bash', bash],
  // A `!` command the user ran (components/store/reduce-shell.ts): read like a bash call.
  [SHELL_CARD, bash],
  ['edit_file', editFile],
  ['write_file', writeFile],
  ['read_file', file],
  ['web_search', file],
  ['web_fetch', file],
  ['agent', createAgentRenderer()],
  ...['todo_write', 'task_create', 'task_update', 'task_get', 'task_list', 'load_skill', 'cron_create', 'cron_delete', 'cron_list'].map((name) => [name, bookkeeping] as const),
]);

/** Gives a tool (a plugin's, say) its own card. */
export function registerToolCard(name: string, card: ToolCard): void {
  registry.set(name, card);
}

export function toolCard(name: string): ToolCard {
  return registry.get(name) ?? generic;
}

/** The title on a card's header and in the scrollback: one line, never empty. */
export function cardTitle(item: Pick<ToolItem, 'view' | 'input'>): string {
  return callView(item).title.replace(/\s+/g, ' ').trim();
}
