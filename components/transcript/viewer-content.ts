import { findToolDeep } from '../store/subagent-state.js';
import type { PermissionRequest, ToolItem, TranscriptItem, TuiState, ViewerSource } from '../store/types.js';
import { bold, paint, wrapText } from '../theme/ansi.js';
import type { Theme } from '../theme/theme.js';
import { diffLines } from './diff-lines.js';
import { displayDiff } from './display-renderers.js';
import { approvalHeadline, subjectLines } from './call-view-lines.js';
import { cardTitle, toolCard } from './tool-cards.js';
import { findFindingCard, findingPlace, findingViewerLines } from './finding-lines.js';

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
  const finding = findFindingCard(state.items, source.id);
  if (finding) return { title: `${finding.finding.severity} finding · ${findingPlace(finding.finding)} · f on the card asks cairn to fix it`, lines: findingViewerLines(finding.finding, width, theme) };
  const item = findItem(state.items, source.id);
  return item ? itemContent(item, width, theme) : undefined;
}

function findItem(items: readonly TranscriptItem[], id: string): TranscriptItem | undefined {
  return items.find((i) => i.id === id) ?? findToolDeep(items, id);
}

const text = (s: string, width: number): string[] => wrapText(s.replace(/\n+$/, ''), width);
const section = (title: string, theme: Theme): string[] => ['', paint(theme, 'muted', `── ${title}`)];

/** The call as asked: what it is about first (the command, path or plan), then what its card adds. */
function inputLines(call: PermissionRequest | ToolItem, width: number, theme: Theme): string[] {
  return [...subjectLines(call, width, theme, true), ...(toolCard(call.name).details?.(inputRecord(call.input), width, theme) ?? [])];
}

const inputRecord = (input: unknown): Record<string, unknown> => (typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {});

function approvalContent(request: PermissionRequest, width: number, theme: Theme): ViewerContent {
  const lines = inputLines(request, width, theme);
  if (request.preview) lines.push(...section('diff', theme), ...diffLines(request.preview, width, theme));
  lines.push(...section('why it asks', theme), ...text(request.reason, width).map((l) => paint(theme, 'muted', l)));
  return { title: `${approvalHeadline(request)}${request.agent ? ` (agent: ${request.agent})` : ''} · the approval waits behind this view`, lines };
}

function toolContent(item: ToolItem, width: number, theme: Theme): string[] {
  const lines = inputLines(item, width, theme);
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
      return { title: `${item.name} ${cardTitle(item)}`, lines: toolContent(item, width, theme) };
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
