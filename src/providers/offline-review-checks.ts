// The offline model's stand-in for a reviewer: a few fixed checks on the lines a diff adds
// (a debug statement left in, a TODO added, a secret-looking literal). Not a review; it gives
// /review and /security-review something true to report when no real model is configured.
import type { Severity } from '../tools/report-findings-display.js';

/** A line the change adds: the file as the diff names it (new side), its line number in the new file. */
export interface AddedLine {
  file: string;
  line: number;
  text: string;
}

export interface OfflineFinding {
  file: string;
  line: number;
  severity: Severity;
  title: string;
  why: string;
  fix: string;
}

/** The most findings reported (report_findings takes at most 50). */
export const MAX_OFFLINE_FINDINGS = 50;

/**
 * The added lines of a unified diff, numbered from the hunk headers (`@@ -a,b +c,d @@`): `+` lines
 * count and are kept, context lines count, `-` lines do not. A deleted file (`+++ /dev/null`) adds nothing.
 */
export function addedLines(diff: string): AddedLine[] {
  const out: AddedLine[] = [];
  let file: string | undefined;
  let next = 0;
  let inHunk = false;
  for (const raw of diff.split('\n')) {
    if (raw.startsWith('diff --git ')) {
      file = undefined;
      inHunk = false;
      continue;
    }
    if (!inHunk && raw.startsWith('+++ ')) {
      file = newSidePath(raw.slice(4));
      continue;
    }
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(raw);
    if (hunk) {
      next = Number(hunk[1]);
      inHunk = true;
      continue;
    }
    if (!inHunk || file === undefined) continue;
    if (raw.startsWith('+')) out.push({ file, line: next++, text: raw.slice(1) });
    else if (raw.startsWith(' ')) next++;
    // '-' lines and "\ No newline at end of file" move nothing on the new side.
  }
  return out;
}

/** `b/src/a.ts` (or a mnemonic `w/`, `i/` prefix) as `src/a.ts`; /dev/null as undefined. Quoted names are unquoted simply. */
function newSidePath(spec: string): string | undefined {
  let name = spec.replace(/\t.*$/, '').trim();
  if (name.startsWith('"') && name.endsWith('"')) name = name.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (name === '/dev/null') return undefined;
  return name.replace(/^[bwi]\//, '');
}

interface Check {
  severity: Severity;
  /** The finding for this line, or undefined when the check does not apply. */
  test: (text: string, file: string) => Omit<OfflineFinding, 'file' | 'line' | 'severity'> | undefined;
}

const SECRET_ASSIGNMENT = /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|private[_-]?key)\w*["']?\s*[:=]\s*["'][^"'\s]{4,}["']/i;
const AWS_KEY_ID = /\bA(?:KIA|SIA)[0-9A-Z]{16}\b/;
const PRIVATE_KEY = /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/;

const CHECKS: Check[] = [
  {
    severity: 'critical',
    test: (text) => {
      const what = AWS_KEY_ID.test(text) ? 'an AWS access key id' : PRIVATE_KEY.test(text) ? 'a private key' : SECRET_ASSIGNMENT.test(text) ? 'a hard-coded password or key' : undefined;
      if (!what) return undefined;
      return {
        title: `Secret-looking value in the code: ${what}`,
        why: 'Anyone who can read the repository can read it, and it stays in the git history after it is removed.',
        fix: 'Read it from the environment or a secret store instead; if it is a real credential, rotate it.',
      };
    },
  },
  {
    severity: 'low',
    test: (text, file) => {
      const statement = /\bconsole\.(?:log|debug|trace)\s*\(/.exec(text)?.[0] ?? /^\s*debugger\s*;?\s*$/.exec(text)?.[0] ?? (/\.py$/.test(file) ? /^\s*(?:print|breakpoint)\s*\(/.exec(text)?.[0] : undefined);
      if (!statement) return undefined;
      const shown = statement.trim().replace(/\s*\($/, '').replace(/\s*;$/, '');
      return {
        title: `Debug statement left in: ${shown}`,
        why: 'Debug output or a breakpoint added while working usually should not be committed: it clutters logs or stops the program.',
        fix: "Remove it, or use the project's logger if the output is meant to stay.",
      };
    },
  },
  {
    severity: 'low',
    test: (text) => {
      const m = /\b(TODO|FIXME)\b:?\s*(.*)$/.exec(text);
      if (!m) return undefined;
      const note = (m[2] ?? '').replace(/\s*(?:\*\/|-->)\s*$/, '').trim();
      return {
        title: `${m[1] ?? 'TODO'} added${note ? `: ${note.length > 60 ? `${note.slice(0, 57)}...` : note}` : ''}`,
        why: 'The change leaves work unfinished; a note in the code is easy to forget.',
        fix: 'Finish it in this change, or track it in an issue and name the issue in the comment.',
      };
    },
  },
];

const RANK: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/** The findings of the fixed checks on the added lines, most severe first, at most MAX_OFFLINE_FINDINGS. */
export function offlineFindings(lines: readonly AddedLine[]): OfflineFinding[] {
  const found: OfflineFinding[] = [];
  for (const l of lines) {
    for (const check of CHECKS) {
      const hit = check.test(l.text, l.file);
      if (hit) found.push({ file: l.file, line: l.line, severity: check.severity, ...hit });
    }
  }
  // Array.prototype.sort is stable: within a severity, the diff's order stays.
  return found.sort((a, b) => RANK[a.severity] - RANK[b.severity]).slice(0, MAX_OFFLINE_FINDINGS);
}
