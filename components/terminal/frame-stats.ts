// What the benches read from inside the running app (`CAIRN_BENCH_STATS=<file>`): on SIGUSR2 one
// JSON line is appended with memory, open handles by type, and the frames drawn since the last
// line (how many, the slowest, the total) plus the longest event-loop stall. Off by default; when
// off, `recordFrame` is a no-op that costs one comparison. (The first frame loads this module:
// node:perf_hooks is fetched only when the probe starts, and `performance` is the global one.)
import { appendFileSync } from 'node:fs';
import type { IntervalHistogram } from 'node:perf_hooks';

export interface FrameStatsLine {
  at: number;
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
  /** process.getActiveResourcesInfo() counted by type: 'Timeout', 'TCPWrap', 'FSReqCallback'... */
  resources: Record<string, number>;
  frames: number;
  frameMsMax: number;
  frameMsTotal: number;
  /** The longest the event loop was blocked since the last line (ms). */
  loopDelayMaxMs: number;
  /** What the line was written for: 'signal' (SIGUSR2) or 'exit'. */
  reason: string;
}

let enabled = false;
let frames = 0;
let frameMsMax = 0;
let frameMsTotal = 0;
let loop: IntervalHistogram | undefined;

/** Counts one drawn frame that took `ms` to build and write. */
export function recordFrame(ms: number): void {
  if (!enabled) return;
  frames++;
  frameMsTotal += ms;
  if (ms > frameMsMax) frameMsMax = ms;
}

/** Times `draw` as one frame when stats are on. */
export function timedFrame(draw: () => void): void {
  if (!enabled) return draw();
  const t0 = performance.now();
  draw();
  recordFrame(performance.now() - t0);
}

function resourceCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

/** The current figures as one line; resets the per-interval counters. */
export function takeFrameStats(reason: string): FrameStatsLine {
  const mem = process.memoryUsage();
  const mb = (n: number): number => Math.round((n / 1048576) * 10) / 10;
  const line: FrameStatsLine = {
    at: Date.now(),
    rssMb: mb(mem.rss),
    heapUsedMb: mb(mem.heapUsed),
    externalMb: mb(mem.external),
    resources: resourceCounts(),
    frames,
    frameMsMax: Math.round(frameMsMax * 100) / 100,
    frameMsTotal: Math.round(frameMsTotal * 10) / 10,
    loopDelayMaxMs: loop ? Math.round(loop.max / 1e4) / 100 : 0,
    reason,
  };
  frames = 0;
  frameMsMax = 0;
  frameMsTotal = 0;
  loop?.reset();
  return line;
}

/**
 * Starts the probe when `CAIRN_BENCH_STATS` names a file. Returns a stop function (which writes
 * a last line); a no-op when the variable is unset.
 */
export function startFrameStats(env: NodeJS.ProcessEnv = process.env): () => void {
  const file = env['CAIRN_BENCH_STATS'];
  if (!file) return () => undefined;
  enabled = true;
  loop = process.getBuiltinModule('node:perf_hooks').monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const write = (reason: string): void => appendFileSync(file, `${JSON.stringify(takeFrameStats(reason))}\n`);
  const onSignal = (): void => write('signal');
  process.on('SIGUSR2', onSignal);
  return () => {
    process.off('SIGUSR2', onSignal);
    write('exit');
    loop?.disable();
    enabled = false;
  };
}
