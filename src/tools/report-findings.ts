import fs from 'node:fs/promises';
import * as z from 'zod';
import { realpathLongestPrefix } from '../permissions/paths.js';
import { displayPath, isInside, resolveInWorkspace } from './paths.js';
import { SEVERITIES, type Finding } from './report-findings-display.js';
import { defineTool, type Tool, type ToolContext } from './tool.js';

const FindingInput = z.object({
  file: z.string().min(1).describe('The file, relative to the workspace (as the diff names it)'),
  line: z.number().int().min(1).describe('The line in the new version of the file'),
  severity: z.enum(SEVERITIES).describe('critical: exploitable or data-losing now; high: a bug users will hit; medium: edge cases, missing tests; low: clarity'),
  title: z.string().min(1).describe('What is wrong, one line'),
  why: z.string().describe('Why it matters: the case that breaks, the path from input to harm'),
  fix: z.string().describe('A concrete change that fixes it'),
});

const inputSchema = z.object({
  findings: z.array(FindingInput).max(50).describe('Every finding of the review, most severe first; empty when there is nothing to report'),
  summary: z.string().optional().describe('One or two sentences: is the change ready?'),
});

export type ReportFindingsInput = z.infer<typeof inputSchema>;

/** Lines either side of the finding's line the card's full view shows. */
const CONTEXT_LINES = 6;
const MAX_FILE_BYTES = 2 << 20;
const MAX_LINE_CHARS = 400;

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "3 findings (1 high, 2 low)". */
export function findingsTitle(findings: readonly { severity: string }[]): string {
  if (findings.length === 0) return 'no findings';
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  return `${plural(findings.length, 'finding')} (${counts.map(([s, n]) => `${n} ${s}`).join(', ')})`;
}

/**
 * The review's findings, as cards the user can open and ask to have fixed (skills/review,
 * skills/security-review). It changes nothing; it reads the lines around each place, inside the
 * workspace and outside read deny rules only, for the card's full view.
 */
export function createReportFindingsTool(): Tool<ReportFindingsInput> {
  return defineTool<ReportFindingsInput>({
    name: 'report_findings',
    description:
      "Report a code review's findings to the user, each with file, line, severity, what is wrong (title), why it matters and a concrete fix. " +
      'The user sees each finding as a card, can open the place and ask you to fix one. Call it once per review with every finding (an empty list when there are none); then answer briefly.',
    inputSchema,
    describe: (input) => ({ title: findingsTitle(input.findings), subject: { kind: 'input' } }),
    kind: 'other',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    async call(input, ctx) {
      const findings: Finding[] = [];
      for (const f of input.findings) {
        const excerpt = await excerptAt(f.file, f.line, ctx);
        findings.push({ ...f, file: displayPath(ctx.cwd, resolveInWorkspace(ctx.cwd, f.file)), ...(excerpt ? { excerpt } : {}) });
      }
      const lines = findings.map((f) => `- ${f.file}:${f.line} [${f.severity}] ${f.title}`);
      const content = findings.length === 0 ? 'Reported no findings to the user.' : `Reported ${findingsTitle(findings)} to the user, shown as cards:\n${lines.join('\n')}`;
      return { content, display: { kind: 'report_findings', findings, ...(input.summary ? { summary: input.summary } : {}) } };
    },
  });
}

/** The lines around `line`, or undefined when the file is outside the workspace, denied, missing, binary or large. */
async function excerptAt(file: string, line: number, ctx: ToolContext): Promise<Finding['excerpt']> {
  try {
    const real = await realpathLongestPrefix(resolveInWorkspace(ctx.cwd, file));
    if (!isInside(ctx.cwd, real) || ctx.isReadDenied?.(real)) return undefined;
    const stat = await fs.stat(real);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    const text = await fs.readFile(real, 'utf8');
    if (text.includes('\u0000')) return undefined;
    const all = text.replace(/\n$/, '').split('\n');
    const start = Math.max(1, line - CONTEXT_LINES);
    const lines = all.slice(start - 1, Math.min(all.length, line + CONTEXT_LINES)).map((l) => (l.length > MAX_LINE_CHARS ? `${l.slice(0, MAX_LINE_CHARS)}…` : l));
    return lines.length > 0 ? { start, lines } : undefined;
  } catch {
    return undefined; // no excerpt: the card still names the place
  }
}
