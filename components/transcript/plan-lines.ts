import { planTitle } from '../../src/tools/exit-plan-mode.js';
import { boundKeyLabel } from '../keys/key-help.js';
import { markdownVersion, renderMarkdown } from '../markdown/render-markdown.js';
import { planModeNote } from '../../src/permission-modes.js';
import type { ApprovedPlan } from '../store/types.js';
import { bold, clipLine, paint, textWidth } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';

// The approved plan, pinned above the prompt: one title line folded; unfolded, its Markdown under
// the title, at most `maxRows` rows in all (the rest is a line pointing at /plan).

const INDENT = '  ';

/** The notice code of a plan shown again (/plan): the transcript draws its text as Markdown under a title line. */
export const PLAN_NOTICE = 'plan';

// The plan's name: its first line, heading marks gone (as its approval card titles it).
export { planTitle } from '../../src/tools/exit-plan-mode.js';

let cached: { text: string; width: number; theme: string; version: number; lines: string[] } | undefined;

/** The plan's Markdown as lines (kept for the last text and width: layout and panel both ask per frame). */
function bodyLines(text: string, width: number, theme: Theme): string[] {
  const name = theme.color ? theme.name : 'none';
  const version = markdownVersion();
  if (cached && cached.text === text && cached.width === width && cached.theme === name && cached.version === version) return cached.lines;
  const lines = renderMarkdown(text, Math.max(1, width - INDENT.length), name).map((l) => `${INDENT}${l}`);
  cached = { text, width, theme: name, version, lines };
  return lines;
}

// How the plan is carried out: said by src/permission-modes.ts, which the page's server shares.
export { planModeNote } from '../../src/permission-modes.js';

function shorten(text: string, width: number): string {
  return textWidth(text) <= width ? text : `${clipLine(text, width - 1)}…`;
}

export function planPanelHeight(plan: ApprovedPlan | undefined, width: number, theme: Theme, maxRows: number): number {
  if (!plan || maxRows <= 0) return 0;
  if (!plan.expanded) return 1;
  return Math.min(maxRows, 1 + bodyLines(plan.text, width, theme).length);
}

export function planPanelLines(plan: ApprovedPlan | undefined, width: number, theme: Theme, maxRows: number): string[] {
  const rows = planPanelHeight(plan, width, theme, maxRows);
  if (!plan || rows === 0) return [];
  const key = boundKeyLabel('togglePlan');
  const mode = plan.mode !== undefined && plan.mode !== 'default' ? ` · ${planModeNote(plan.mode)}` : '';
  const glyph = plan.expanded ? '▾' : '▸';
  const hint = plan.expanded ? `${key} folds` : `${key} unfolds · /plan shows it`;
  // The name gives way to the mode and the key: those say what the block is and how to use it.
  const suffix = `${mode} · ${hint}`;
  const room = Math.max(10, width - textWidth(`${glyph} Approved plan: `) - textWidth(suffix));
  const title = clipLine(`${paint(theme, 'accent', glyph)} ${bold('Approved plan')}: ${shorten(planTitle(plan.text), room)}${paint(theme, 'muted', suffix)}`, width);
  if (!plan.expanded || rows === 1) return [title];
  const body = bodyLines(plan.text, width, theme);
  if (body.length <= rows - 1) return [title, ...body.map((l) => clipLine(l, width))];
  const shown = body.slice(0, Math.max(0, rows - 2)).map((l) => clipLine(l, width));
  const more = paint(theme, 'muted', clipLine(`${INDENT}… ${body.length - shown.length} more lines: /plan shows the whole plan`, width));
  return [title, ...shown, more];
}
