// Subagents streaming at once (issue 22: eight subagents streaming at most 2x the CPU of one
// stream, no frame over 50 ms to build). In a 120x40 pty on the offline model, three runs, each in
// a fresh cairn:
//   main  `stream 1000 at 200/s`: one answer streamed into the main transcript;
//   one   `use 1 subagent to stream 1000 at 200/s`: the same stream inside one explore subagent;
//   eight `use 8 subagents to stream 1000 at 200/s`: eight such subagents at once (one parallel
//         batch: explore agents are read-only, hence concurrency-safe; 8 is the loop's cap).
// No approval is asked: the agent tool changes nothing itself, and `stream` runs no tools, so
// neither `--permission-mode` nor an allow rule is needed.
//
// The window measured: for `main`, from Enter to the whole answer on screen with the prompt back;
// for the subagent runs, from the moment all N agent cards are on screen (spinning) to all N
// marked done (✓), so the model's one-line preamble before the calls and the summary after them
// are left out. In that window: CPU (utime + stime from /proc), wall time, bytes written to the
// terminal, and from the in-app probe (CAIRN_BENCH_STATS, one SIGUSR2 at each end) the frames
// drawn, the slowest frame's build time and the longest event-loop stall. Peak RSS is the
// process's VmHWM (since start) at the end of the window. With frameWriter false (Ink writes the
// screen) the probe counts no frames: frames, frameMsMax and frameMsTotal are 0 there.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateMarkdown } from '../../../src/providers/offline-markdown.js';
import { createSandbox, PROMPT_VISIBLE, startCairn } from './cairn-pty.js';
import type { PtyApp } from './pty-app.js';
import { sleep } from './pty-app.js';

export const SUBAGENT_STREAM_WORDS = 1000;
/** Deltas per second of each stream (4 characters a delta). */
export const SUBAGENT_STREAM_RATE = 200;
export const SUBAGENT_COUNT = 8;

const STREAM = `stream ${SUBAGENT_STREAM_WORDS} at ${SUBAGENT_STREAM_RATE}/s`;
const BUSY = 'Type to queue a prompt';
/** A running agent card's header: a Braille spinner frame, then the tool and its label. */
const LIVE_AGENT = /[\u2800-\u28ff] agent explore: /g;
const DONE_AGENT = /✓ agent explore: /g;

/** The probe's figures for one interval (see components/terminal/frame-stats.ts). */
interface ProbeLine {
  rssMb: number;
  heapUsedMb: number;
  frames: number;
  frameMsMax: number;
  frameMsTotal: number;
  loopDelayMaxMs: number;
}

/** One run's figures; every field is for the measured window. */
export interface SubagentWindow extends Record<string, number> {
  /** Wall time of the window, ms. */
  wallMs: number;
  /** utime + stime of the cairn process in the window, seconds. */
  cpuSeconds: number;
  /** cpuSeconds / wall seconds, in percent of one core. */
  cpuPercent: number;
  /** Bytes cairn wrote to the terminal. */
  bytes: number;
  /** VmHWM at the end of the window, MB. */
  peakRssMb: number;
  /** From the probe: frames drawn, the slowest frame's build (ms), their total (ms). */
  frames: number;
  frameMsMax: number;
  frameMsTotal: number;
  /** From the probe: the longest event-loop stall (ms). */
  loopDelayMaxMs: number;
  /** From the probe at the end of the window. */
  heapUsedMb: number;
}

/** Sends SIGUSR2 and waits for the probe's next line. */
async function probe(app: PtyApp, file: string): Promise<ProbeLine> {
  const before = readLines(file).length;
  process.kill(app.pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 10) {
    const line = readLines(file)[before];
    if (line) return JSON.parse(line) as ProbeLine;
    await sleep(10);
  }
  throw new Error(`no probe line in ${file} 10 s after SIGUSR2`);
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  } catch {
    return [];
  }
}

function count(screen: string, re: RegExp): number {
  return screen.match(re)?.length ?? 0;
}

/**
 * One run in a fresh cairn. `agents` 0 streams in the main transcript; N >= 1 runs the stream in
 * N subagents. `showScreen` gets the screen half-way through the window.
 */
export async function measureSubagentWindow(agents: number, frameWriter = true, showScreen?: (screen: string) => void): Promise<SubagentWindow> {
  const sandbox = createSandbox();
  const statsFile = path.join(sandbox.home, 'bench-stats.jsonl');
  const app = startCairn(sandbox, [], frameWriter, { CAIRN_BENCH_STATS: statsFile });
  const prompt = agents === 0 ? STREAM : `use ${agents} subagent${agents === 1 ? '' : 's'} to ${STREAM}`;
  const markdown = generateMarkdown(SUBAGENT_STREAM_WORDS);
  // The answer's last line as shown (a heading loses its `#`s): with the prompt back, the whole answer is on screen.
  const tail = (markdown.trimEnd().split('\n').at(-1) ?? '').replace(/^#+\s*/, '').trim();
  // A stream takes about this long; the screen is shown half-way.
  const expectMs = (Math.ceil(markdown.length / 4) * 1000) / SUBAGENT_STREAM_RATE;
  try {
    await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
    await app.waitQuiet(300);
    app.write(prompt);
    await app.waitForScreen((s) => s.includes(prompt), 'the typed prompt');
    await app.waitQuiet(200);

    if (agents === 0) await probe(app, statsFile); // resets the probe's interval
    let bytes0 = app.bytes;
    let stats0 = app.stats();
    let t0 = performance.now();
    app.write('\r');
    await app.waitForScreen((s) => s.includes(BUSY), 'the turn to start', 10_000);
    if (agents > 0) {
      t0 = await app.waitForScreen((s) => count(s, LIVE_AGENT) >= agents, `${agents} running agent cards`, 30_000);
      stats0 = app.stats();
      bytes0 = app.bytes;
      await probe(app, statsFile);
    }
    if (showScreen) void sleep(expectMs / 2).then(() => showScreen(app.screen()));
    const done =
      agents === 0
        ? await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE) && !s.includes(BUSY) && s.includes(tail), 'the whole answer on screen', 180_000)
        : await app.waitForScreen((s) => count(s, DONE_AGENT) >= agents, `${agents} agent cards done`, 180_000);
    const stats1 = app.stats();
    const bytes = app.bytes - bytes0;
    const end = await probe(app, statsFile);
    const wallMs = done - t0;
    const cpuSeconds = stats1.cpuSeconds - stats0.cpuSeconds;
    return {
      wallMs,
      cpuSeconds,
      cpuPercent: (cpuSeconds / (wallMs / 1000)) * 100,
      bytes,
      peakRssMb: stats1.peakRssMb,
      frames: end.frames,
      frameMsMax: end.frameMsMax,
      frameMsTotal: end.frameMsTotal,
      loopDelayMaxMs: end.loopDelayMaxMs,
      heapUsedMb: end.heapUsedMb,
    };
  } finally {
    await app.stop();
    sandbox.dispose();
  }
}

const RUNS = [
  ['main', 0],
  ['one', 1],
  ['eight', SUBAGENT_COUNT],
] as const;

/**
 * The three runs (main, one, eight), flattened: `<run><Field>` for every SubagentWindow field
 * (mainCpuSeconds, oneFrameMsMax, eightLoopDelayMaxMs, ...), plus
 *   eightOverMainCpu = eightCpuSeconds / mainCpuSeconds (issue 22's goal: <= 2),
 *   eightOverOneCpu  = eightCpuSeconds / oneCpuSeconds,
 *   oneOverMainCpu   = oneCpuSeconds / mainCpuSeconds.
 * `showScreen` gets each run's screen half-way through it.
 */
export async function measureSubagents(frameWriter = true, showScreen?: (run: string, screen: string) => void): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const cpu: Record<string, number> = {};
  for (const [name, agents] of RUNS) {
    const run = await measureSubagentWindow(agents, frameWriter, showScreen && ((screen) => showScreen(name, screen)));
    for (const [key, value] of Object.entries(run)) out[`${name}${key[0]?.toUpperCase() ?? ''}${key.slice(1)}`] = value;
    cpu[name] = run.cpuSeconds;
  }
  const ratio = (a: string, b: string): number => (cpu[a] ?? NaN) / (cpu[b] ?? NaN);
  out['eightOverMainCpu'] = ratio('eight', 'main');
  out['eightOverOneCpu'] = ratio('eight', 'one');
  out['oneOverMainCpu'] = ratio('one', 'main');
  return out;
}

// `node dist/test/bench/tui/measure-subagents.js [runs] [--screen]`: prints each set of runs.
if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const runs = Math.max(1, Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 1));
  const screen = process.argv.includes('--screen');
  for (let i = 0; i < runs; i++) {
    const result = await measureSubagents(true, screen ? (run, s) => console.log(`--- ${run}, half-way ---\n${s}\n---`) : undefined);
    console.log(JSON.stringify(result));
  }
}
