// Everything bash starts carries CAIRN_SESSION_PROC=<this cairn's marker> in its environment, so
// what it leaves running can be found and ended when cairn ends: a process group is not enough,
// since `setsid` (or a daemon's double fork) makes a session of its own. A process that empties its
// environment (`env -i`) before it execs is out of reach; Linux only (/proc), elsewhere groups only.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const SESSION_PROC_VAR = 'CAIRN_SESSION_PROC';

/** One per loaded engine (a test worker has its own), never shared with another cairn. */
const marker = randomUUID();

/** The variable bash and background shells run with. */
export const SESSION_PROC_ENV: Readonly<Record<string, string>> = { [SESSION_PROC_VAR]: marker };

/** How long what is asked to stop (SIGTERM) gets before SIGKILL, when cairn ends. */
export const END_GRACE_MS = 1_000;
const POLL_MS = 20;

interface Scan {
  /** Live processes carrying the marker. */
  marked: number[];
  /** Every live process with its process group. */
  groupOf: Map<number, number>;
}

/** One pass over /proc; undefined where there is none. Zombies count as gone: only reaping is left. */
function scan(): Scan | undefined {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const needle = `\0${SESSION_PROC_VAR}=${marker}\0`;
  const out: Scan = { marked: [], groupOf: new Map() };
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // After the command name in parentheses: state, ppid, pgrp.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      out.groupOf.set(pid, Number(pgrp));
      if (pid === process.pid) continue;
      // environ is NUL-separated with no leading NUL: add one so the first entry matches too.
      if (`\0${readFileSync(`/proc/${name}/environ`, 'latin1')}`.includes(needle)) out.marked.push(pid);
    } catch {
      // gone while we looked, or not ours to read (another user's, a setuid program)
    }
  }
  return out;
}

/** Live processes whose environment carries this engine's marker, cairn itself aside. */
export function markedProcesses(): number[] {
  return scan()?.marked ?? [];
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // ESRCH: already gone. EPERM: not ours, so it stays a survivor.
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A target is a process group (negative) or one process. */
function isAlive(target: number, s: Scan | undefined): boolean {
  if (s) return target < 0 ? [...s.groupOf.values()].includes(-target) : s.groupOf.has(target);
  try {
    process.kill(target, 0); // without /proc a zombie counts, so the wait may run to its end
    return true;
  } catch {
    return false;
  }
}

export interface EndReport {
  /** Processes that were running in the groups or carried the marker. */
  ended: number;
  /** Groups (negative) and processes still there after SIGKILL. */
  survivors: number[];
}

/**
 * Ends the given process groups and every process carrying the marker: SIGTERM, up to `graceMs`
 * for them to go, then SIGKILL. Synchronous, so it also runs in an 'exit' handler.
 */
export function endSessionProcesses(groups: readonly number[], graceMs = END_GRACE_MS): EndReport {
  const asked = new Set<number>();
  const seen = new Set<number>();
  const remaining = (s: Scan | undefined): number[] => {
    for (const pid of s?.marked ?? []) seen.add(pid);
    for (const [pid, pgrp] of s?.groupOf ?? []) if (asked.has(-pgrp) || groups.includes(pgrp)) seen.add(pid);
    return [...new Set([...groups.map((g) => -g), ...asked, ...(s?.marked ?? [])])].filter((t) => isAlive(t, s));
  };
  const deadline = Date.now() + graceMs;
  let current = scan();
  let left = remaining(current);
  while (left.length > 0) {
    for (const t of left) {
      if (asked.has(t)) continue;
      asked.add(t);
      signal(t, 'SIGTERM');
    }
    if (Date.now() >= deadline) break;
    sleepSync(POLL_MS);
    current = scan();
    left = remaining(current); // a child one of them started meanwhile is found and asked too
  }
  if (left.length === 0) return { ended: seen.size, survivors: [] };
  for (const t of left) signal(t, 'SIGKILL');
  sleepSync(POLL_MS);
  return { ended: seen.size, survivors: remaining(scan()) };
}
