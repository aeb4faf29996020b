import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { SandboxPolicy } from './policy.js';

// Inside the sandbox /tmp is the session's own folder (policy.tempDir), so a command the user approved
// to write /tmp/report.txt succeeds without the machine's /tmp/report.txt ever changing. This watch
// notices that for the /tmp paths a command names, so the result says where the file went instead of
// reading as done. It is a report, not a control: the sandbox has already kept the write in.

/** Absolute /tmp/... paths written out in a command (quotes stripped; a path ends at shell syntax). */
export function namedTmpPaths(command: string): string[] {
  const found = new Set<string>();
  const quoted = /(?<![\w./-])(?:"(\/tmp\/[^"$`\\]+)"|'(\/tmp\/[^']+)'|(\/tmp\/[^\s'"`;|&<>()$\\]+))/g;
  for (const m of command.matchAll(quoted)) {
    const p = path.posix.normalize(m[1] ?? m[2] ?? m[3] ?? '').replace(/\/$/, '');
    if (p.startsWith('/tmp/')) found.add(p);
  }
  return [...found];
}

const stamp = (p: string): string | undefined => {
  try {
    const s = lstatSync(p);
    return `${s.mtimeMs}:${s.size}:${s.ino}`;
  } catch {
    return undefined;
  }
};

const isUnder = (root: string, p: string): boolean => p === root || p.startsWith(`${root}/`);

export interface PrivateTmpWatch {
  /** After the command: the note naming the /tmp paths it wrote into the session's folder, if any. */
  report(retryHint: boolean): string | undefined;
}

/** Starts watching the /tmp paths `command` names that land in the session's private /tmp (not in a bound writable folder). */
export function watchPrivateTmp(command: string, policy: SandboxPolicy): PrivateTmpWatch {
  const bound = policy.writable.filter((w) => w !== policy.tempDir);
  const watched = namedTmpPaths(command)
    .filter((p) => !bound.some((w) => isUnder(w, p)))
    .map((p) => ({ given: p, inside: path.join(policy.tempDir, p.slice('/tmp/'.length)) }));
  const before = new Map(watched.map((w) => [w.inside, stamp(w.inside)]));
  return {
    report(retryHint) {
      const written = watched.filter((w) => {
        const now = stamp(w.inside);
        return now !== undefined && now !== before.get(w.inside);
      });
      if (written.length === 0) return undefined;
      const names = written.map((w) => w.given).join(', ');
      return [
        `Sandbox: ${names} ${written.length === 1 ? 'was' : 'were'} written to this session's private /tmp (${policy.tempDir}), not to the machine's /tmp, where nothing changed.`,
        'Later commands in this session see the same file at the same /tmp path.',
        retryHint
          ? "If it must be in the machine's /tmp, run it again with dangerously_disable_sandbox: true; the user is asked to approve it."
          : "If it must be in the machine's /tmp, ask the user to do it (commands cannot run outside the sandbox here).",
      ].join(' ');
    },
  };
}
