// A bash tool call flooding the TUI: the offline model runs `node flood.js`, a script in the
// workspace printing `lines` lines in bursts over a fixed time. While it runs: the bytes the app
// writes, keypress latency, CPU, peak RSS, and from the in-app probe (CAIRN_BENCH_STATS + SIGUSR2)
// the frames drawn, the slowest frame and the longest event-loop stall.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createSandbox, PROMPT_VISIBLE, startCairn } from './cairn-pty.js';
import { typeAndTime } from './measure-keys.js';
import type { PtyApp } from './pty-app.js';
import { sleep } from './pty-app.js';
import { percentile } from './stats.js';

/** How long the command prints, whatever the line count: long enough to type ~40 keys. */
export const FLOOD_MS = 8000;
const BURST_MS = 20;
const DONE = 'flood done';

// Prints `total` lines in bursts every BURST_MS over `ms`, each burst written as one chunk (so the
// pipe sees what a compiler or test runner does), then the marker line the bench waits for.
const FLOOD_JS = `const total = Number(process.argv[2]);
const ms = Number(process.argv[3]);
const bursts = Math.max(1, Math.floor(ms / ${BURST_MS}));
const t0 = Date.now();
let sent = 0;
let burst = 0;
function tick() {
  burst++;
  const upTo = Math.min(total, Math.round((total * burst) / bursts));
  let chunk = '';
  for (; sent < upTo; sent++) chunk += 'line ' + String(sent + 1).padStart(6, '0') + ' of the flood, some text to make it look like a log\\n';
  const write = () => {
    if (burst >= bursts) { process.stdout.write('${DONE} ' + total + '\\n'); return; }
    setTimeout(tick, Math.max(0, t0 + burst * ${BURST_MS} - Date.now()));
  };
  if (chunk === '' || process.stdout.write(chunk)) write(); else process.stdout.once('drain', write);
}
tick();
`;

/** The command the model runs; the allow rule below covers exactly this prefix. */
const COMMAND = 'node flood.js';
const ALLOW_RULE = `Bash(${COMMAND}:*)`;

/** The probe's figures for one interval (see components/terminal/frame-stats.ts). */
interface ProbeLine {
  rssMb: number;
  heapUsedMb: number;
  frames: number;
  frameMsMax: number;
  frameMsTotal: number;
  loopDelayMaxMs: number;
}

/** Sends SIGUSR2 and waits for the probe's next line. */
async function probe(app: PtyApp, file: string): Promise<ProbeLine> {
  const before = readLines(file).length;
  process.kill(app.pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 20) {
    const lines = readLines(file);
    const line = lines[before];
    if (line) return JSON.parse(line) as ProbeLine;
    await sleep(20);
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

export interface BashFloodRun extends Record<string, number> {
  lines: number;
  /** From Enter to the marker line on screen. */
  runMs: number;
  /** Bytes the app wrote from Enter until the card settled after the command. */
  bytes: number;
  bytesPerLine: number;
  keyP50Ms: number;
  keyP95Ms: number;
  keySamples: number;
  /** CPU seconds / wall seconds of the run, in percent of one core. */
  cpuPercent: number;
  peakRssMb: number;
  /** Probe at the end of the run. */
  rssMb: number;
  heapUsedMb: number;
  frames: number;
  frameMsMax: number;
  frameMsTotal: number;
  loopDelayMaxMs: number;
}

/** Keys typed while the command runs (fewer if it ends first). */
const KEYS = 60;

/**
 * One `run node flood.js <lines> <FLOOD_MS>` in a 120x40 pty, approved by a single allow rule
 * (`--allowed-tools "Bash(node flood.js:*)"`); unsandboxed (cairn's sandbox is off by default).
 * `showScreen` receives the screen half-way through the run.
 */
export async function measureBashFlood(lines: number, frameWriter = true, showScreen?: (screen: string) => void): Promise<BashFloodRun> {
  const sandbox = createSandbox();
  writeFileSync(path.join(sandbox.workspace, 'flood.js'), FLOOD_JS);
  const statsFile = path.join(sandbox.home, 'bench-stats.jsonl');
  const app = startCairn(sandbox, ['--allowed-tools', ALLOW_RULE], frameWriter, { CAIRN_BENCH_STATS: statsFile });
  try {
    await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
    await app.waitQuiet(300);
    const prompt = `run ${COMMAND} ${lines} ${FLOOD_MS}`;
    app.write(prompt);
    await app.waitForScreen((s) => s.includes(prompt), 'the typed prompt');
    await app.waitQuiet(200);

    await probe(app, statsFile); // resets the probe's interval
    const bytes0 = app.bytes;
    const stats0 = app.stats();
    const t0 = performance.now();
    app.write('\r');
    // The first lines on the card: the command runs (no approval asked).
    await app.waitForScreen((s) => /line \d{6} of the flood/.test(s), 'the first lines of output on the card', 15_000);
    let running = true;
    const ended = app.waitForScreen((s) => s.includes(`${DONE} ${lines}`), 'the end of the output on screen', FLOOD_MS + 120_000);
    ended.then(
      () => (running = false),
      () => (running = false),
    );
    if (showScreen) {
      void sleep(FLOOD_MS / 2).then(() => running && showScreen(app.screen()));
    }
    const { latenciesMs } = await typeAndTime(app, KEYS, () => running);
    const done = await ended;
    const stats1 = app.stats();
    const end = await probe(app, statsFile);
    await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE) && !s.includes('Type to queue a prompt'), 'the turn to end', 30_000);
    await app.waitQuiet(500);
    const bytes = app.bytes - bytes0;
    if (latenciesMs.length < 20) throw new Error(`only ${latenciesMs.length} keypresses fitted in the run`);
    return {
      lines,
      runMs: done - t0,
      bytes,
      bytesPerLine: bytes / lines,
      keyP50Ms: percentile(latenciesMs, 50),
      keyP95Ms: percentile(latenciesMs, 95),
      keySamples: latenciesMs.length,
      cpuPercent: ((stats1.cpuSeconds - stats0.cpuSeconds) / ((done - t0) / 1000)) * 100,
      peakRssMb: stats1.peakRssMb,
      rssMb: end.rssMb,
      heapUsedMb: end.heapUsedMb,
      frames: end.frames,
      frameMsMax: end.frameMsMax,
      frameMsTotal: end.frameMsTotal,
      loopDelayMaxMs: end.loopDelayMaxMs,
    };
  } finally {
    await app.stop();
    sandbox.dispose();
  }
}

export interface BashBurstRun extends Record<string, number> {
  lines: number;
  /** From Enter to the prompt back with the card done. */
  runMs: number;
  bytes: number;
  cpuSeconds: number;
  peakRssMb: number;
  frames: number;
  frameMsMax: number;
  loopDelayMaxMs: number;
}

/**
 * `seq 1 <lines>`: the whole output at once, as fast as the pipe takes it (no keys typed; the
 * longest event-loop stall says how long a key would have waited).
 */
export async function measureBashBurst(lines: number, frameWriter = true): Promise<BashBurstRun> {
  const sandbox = createSandbox();
  const statsFile = path.join(sandbox.home, 'bench-stats.jsonl');
  const command = `seq 1 ${lines}`;
  const app = startCairn(sandbox, ['--allowed-tools', 'Bash(seq 1:*)'], frameWriter, { CAIRN_BENCH_STATS: statsFile });
  try {
    await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
    await app.waitQuiet(300);
    app.write(`run ${command}`);
    await app.waitForScreen((s) => s.includes(`run ${command}`), 'the typed prompt');
    await app.waitQuiet(200);
    await probe(app, statsFile);
    const bytes0 = app.bytes;
    const stats0 = app.stats();
    const t0 = performance.now();
    app.write('\r');
    await app.waitForScreen((s) => s.includes('Type to queue a prompt'), 'the turn to start', 10_000);
    const done = await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE) && s.includes(`✓ bash ${command}`), 'the card done and the prompt back', 300_000);
    const stats1 = app.stats();
    await app.waitQuiet(500);
    const end = await probe(app, statsFile);
    return {
      lines,
      runMs: done - t0,
      bytes: app.bytes - bytes0,
      cpuSeconds: stats1.cpuSeconds - stats0.cpuSeconds,
      peakRssMb: stats1.peakRssMb,
      frames: end.frames,
      frameMsMax: end.frameMsMax,
      loopDelayMaxMs: end.loopDelayMaxMs,
    };
  } finally {
    await app.stop();
    sandbox.dispose();
  }
}

// `node dist/test/bench/tui/measure-bash.js [lines...]`: prints each run and the mid-run screen.
if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const counts = process.argv.slice(2).map(Number);
  for (const n of counts.length > 0 ? counts : [1000, 100_000]) {
    const run = await measureBashFlood(n, true, (screen) => console.log(`--- screen mid-run, ${n} lines ---\n${screen}\n---`));
    console.log(JSON.stringify(run));
  }
  for (const n of counts.length > 0 ? counts : [100_000, 1_000_000]) console.log(JSON.stringify(await measureBashBurst(n)));
}
