// CPU time and memory of a process, read from /proc (Linux).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

export interface ProcStats {
  /** utime + stime, seconds. */
  cpuSeconds: number;
  /** Peak resident set (VmHWM), MB. */
  peakRssMb: number;
  /** Current resident set (VmRSS), MB. */
  rssMb: number;
}

export function procStats(pid: number): ProcStats {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces and parens: fields are counted after its closing paren.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${key}`);
    return Number(m[1]);
  };
  return { cpuSeconds: (utime + stime) / clockTicks(), peakRssMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
}
