// The offline model's /review and /security-review: the shipped skills' steps (skills/review/SKILL.md),
// deterministic and shallow. Read the diff cairn put in the prompt, read the untracked files it names
// with read_file (the normal tool, so read rules apply), run the fixed checks of offline-review-checks.ts
// on the added lines and report them with report_findings. A stand-in for tests and first runs, not a reviewer.
import type { Message, ToolResultBlock } from '../messages.js';
import { toolResultText } from '../messages.js';
import type { OfflinePlan, PlannedCall } from './offline-plan.js';
import { addedLines, offlineFindings, type AddedLine } from './offline-review-checks.js';

/** The untracked files read whole; more are left out of the stand-in's look. */
const MAX_UNTRACKED_READ = 10;

/** The prompt a `/review` or `/security-review` line becomes (slash-prompts.ts prepares it). */
export function isReviewPrompt(text: string): boolean {
  const m = /^\/(review|security-review)(?:\s|$)/.exec(text);
  return m !== null && text.includes(`Run the "${m[1] ?? ''}" skill`);
}

/** The diff between the `<diff>` lines review-diff.ts frames it with; empty when there was none. */
export function diffInPrompt(prompt: string): string {
  const start = prompt.indexOf('\n<diff>\n');
  if (start < 0) return '';
  const body = prompt.slice(start + '\n<diff>\n'.length);
  // A diff's own lines all begin with a marker (+, -, space, @, \, diff, index...), so a bare </diff> line is the frame.
  const end = body.indexOf('\n</diff>');
  return end < 0 ? body : body.slice(0, end);
}

/** The untracked files the prompt names ("Untracked files, not in the diff (read them whole): a, b and 3 more ..."). */
export function untrackedInPrompt(prompt: string): string[] {
  const line = /^Untracked files, not in the diff \(read them whole\): (.+)$/m.exec(prompt)?.[1];
  if (!line) return [];
  return line
    .replace(/ and \d+ more \(git status lists them\)$/, '')
    .split(', ')
    .filter((f) => f !== '');
}

/** The review as a script: read the untracked files, then one report_findings, then the closing words. */
export function reviewPlan(prompt: string): OfflinePlan {
  const untracked = untrackedInPrompt(prompt).slice(0, MAX_UNTRACKED_READ);
  return {
    kind: 'script',
    next: (after) => nextReviewCalls(prompt, untracked, after),
    finish: (after) => closingWords(after),
  };
}

function nextReviewCalls(prompt: string, untracked: readonly string[], after: readonly Message[]): PlannedCall[] | undefined {
  const uses = new Map<string, { name: string; path: string }>();
  const read = new Map<string, ToolResultBlock>();
  let reported = false;
  for (const m of after) {
    for (const b of m.content) {
      if (b.type === 'tool_use') {
        const path = (b.input as Record<string, unknown>)['path'];
        uses.set(b.id, { name: b.name, path: typeof path === 'string' ? path : '' });
      }
      if (b.type !== 'tool_result') continue;
      const use = uses.get(b.tool_use_id);
      if (use?.name === 'read_file') read.set(use.path, b);
      if (use?.name === 'report_findings') reported = true;
    }
  }
  if (reported) return undefined;
  if (untracked.length > 0 && read.size === 0) return untracked.map((path) => ({ name: 'read_file', input: { path } }));
  const lines: AddedLine[] = addedLines(diffInPrompt(prompt));
  for (const [file, result] of read) if (!result.is_error) lines.push(...numberedLines(file, result));
  const findings = offlineFindings(lines);
  const summary =
    findings.length === 0
      ? "The offline model's fixed checks found nothing in the diff: it looks clean."
      : `The offline model's fixed checks (debug statements, TODOs, secret-looking values) found ${findings.length}.`;
  return [{ name: 'report_findings', input: { findings, summary } }];
}

/** read_file's numbered lines as added lines of `file` (an untracked file is all new). */
function numberedLines(file: string, result: ToolResultBlock): AddedLine[] {
  const out: AddedLine[] = [];
  for (const l of toolResultText(result).split('\n')) {
    const m = /^\s*(\d+)\t(.*)$/.exec(l);
    if (m) out.push({ file, line: Number(m[1]), text: m[2] ?? '' });
  }
  return out;
}

/** What the offline model says after report_findings: clean, or how many, and that it is a stand-in. */
function closingWords(after: readonly Message[]): string {
  const reported = after.flatMap((m) => m.content).find((b) => b.type === 'tool_use' && b.name === 'report_findings');
  const count = reported?.type === 'tool_use' ? ((reported.input as { findings?: unknown[] }).findings?.length ?? 0) : 0;
  const verdict =
    count === 0
      ? 'No findings: the diff looks clean to these checks.'
      : `Reported ${count} finding${count === 1 ? '' : 's'} as cards: select one and press f to have it fixed.`;
  return `${verdict}\n\nThis is the offline model's stand-in review (fixed checks for debug statements, TODO/FIXME and secret-looking values on the added lines), not a real reviewer: configure a provider for a real review.\n`;
}
