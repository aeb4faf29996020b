import { findToolDeep } from '../store/subagent-state.js';
import type { PermissionRequest, ToolItem, TranscriptItem, TuiState, ViewerSource } from '../store/types.js';
import { bold, paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { diffLines } from './diff-lines.js';
import { displayDiff } from './display-renderers.js';
import { inputRecord, toolRenderer } from './tool-renderers.js';

/** Everything a card or an approval holds, wrapped to the width: nothing elided. */
export interface ViewerContent {
  title: string;
  lines: string[];
}

export function viewerContent(state: Pick<TuiState, 'items' | 'approvals'>, source: ViewerSource, width: number, theme: Theme): ViewerContent | undefined {
  if (source.kind === 'approval') {
    const request = state.approvals.find((a) => a.id === source.id);
    return request ? approvalContent(request, width, theme) : undefined;
  }
  const item = findItem(state.items, source.id);
  return item ? itemContent(item, width, theme) : undefined;
}

function findItem(items: readonly TranscriptItem[], id: string): TranscriptItem | undefined {
  return items.find((i) => i.id === id) ?? findToolDeep(items, id);
}

const text = (s: string, width: number): string[] => wrapText(s.replace(/\n+$/, ''), width);
const section = (title: string, theme: Theme): string[] => ['', paint(theme, 'muted', `── ${title}`)];

/** The call as asked: the command, path or pattern first, other arguments after. */
function inputLines(input: unknown, width: number, theme: Theme): string[] {
  const record = inputRecord(input);
  const { command, path, content, old_string: oldString, new_string: newString, plan, ...rest } = record;
  const out: string[] = [];
  if (typeof command === 'string') out.push(...text(`$ ${command}`, width).map((l) => bold(l)));
  if (typeof path === 'string') out.push(...text(path, width).map((l) => bold(l)));
  if (typeof plan === 'string') out.push(...text(plan, width));
  if (Object.keys(rest).length > 0) out.push(...text(JSON.stringify(rest, null, 2), width).map((l) => paint(theme, 'muted', l)));
  if (typeof oldString === 'string') out.push(...section('replace', theme), ...text(oldString, width).map((l) => paint(theme, 'diffRemove', l)));
  if (typeof newString === 'string') out.push(...section('with', theme), ...text(newString, width).map((l) => paint(theme, 'diffAdd', l)));
  if (typeof content === 'string') out.push(...section('file', theme), ...text(content, width));
  return out;
}

function approvalContent(request: PermissionRequest, width: number, theme: Theme): ViewerContent {
  const lines = inputLines(request.input, width, theme);
  if (request.preview) lines.push(...section('diff', theme), ...diffLines(request.preview, width, theme));
  lines.push(...section('why it asks', theme), ...text(request.reason, width).map((l) => paint(theme, 'muted', l)));
  return { title: `Allow ${request.name}?${request.agent ? ` (agent: ${request.agent})` : ''} · the approval waits behind this view`, lines };
}

function toolContent(item: ToolItem, width: number, theme: Theme): string[] {
  const lines = inputLines(item.input, width, theme);
  const diff = displayDiff(item.display);
  if (diff) lines.push(...section('diff', theme), ...diffLines(diff, width, theme));
  if (item.status === 'denied') lines.push(...section('denied', theme), ...text(item.deniedReason ?? 'declined', width).map((l) => paint(theme, 'error', l)));
  const output = item.result ?? item.progress;
  if (output) lines.push(...section(item.result === undefined ? 'output so far' : 'output', theme), ...text(output, width).map((l) => (item.status === 'error' ? paint(theme, 'error', l) : l)));
  if (item.child) lines.push(...section(`${item.child.tools.length} nested calls (select them in the transcript)`, theme));
  return lines;
}

function itemContent(item: TranscriptItem, width: number, theme: Theme): ViewerContent | undefined {
  switch (item.kind) {
    case 'tool': {
      const arg = toolRenderer(item.name).keyArg(inputRecord(item.input)).replace(/\s+/g, ' ');
      return { title: `${item.name} ${arg}`.trim(), lines: toolContent(item, width, theme) };
    }
    case 'user':
      return { title: 'your prompt', lines: text(item.text, width) };
    case 'thinking':
      return { title: 'thinking', lines: text(item.text.trim(), width).map((l) => paint(theme, 'muted', l)) };
    case 'compact':
      return { title: `compaction summary (${item.trigger})`, lines: text(item.summary.trim() || '(no summary)', width) };
    case 'cron':
      return { title: `cron ${item.taskId} · ${item.schedule}`, lines: [...text(item.prompt, width).map((l) => bold(l)), ...(item.result ? [...section('result', theme), ...text(item.result, width)] : [])] };
    case 'assistant':
    case 'notice':
    case 'terminal':
      return undefined;
  }
}
