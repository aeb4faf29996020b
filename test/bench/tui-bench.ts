// `npm run bench:tui`: the built cairn in a 120x40 pseudo-terminal on the offline model, measured
// against issue 5's goals, with and without the cell-diff frame writer. Median of --runs=N (>= 3).
//   node dist/test/bench/tui-bench.js [--runs=3] [--only=startup,paced,fast,keys,session,mcp]
import { generateMarkdown } from '../../src/providers/offline-markdown.js';
import { fmt, goalTable, type GoalRow } from './tui/goals.js';
import { measureKeysDuringStream, type StreamKeysRun } from './tui/measure-keys.js';
import { measureMcpFirstFrame, type McpFrameTimes } from './tui/measure-mcp-startup.js';
import { measureSession, type SessionRun } from './tui/measure-session.js';
import { measureFirstFrame, measureProcessTimes, type FrameTimes, type ProcessTimes } from './tui/measure-startup.js';
import { measureStream, type StreamRun } from './tui/measure-stream.js';
import { medianOf } from './tui/stats.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const runs = Math.max(1, Number(arg('runs') ?? 3));
const only = arg('only')?.split(',');
const want = (part: string): boolean => !only || only.includes(part);
const WRITERS = [true, false] as const;
const label = (fw: boolean): string => (fw ? 'writer' : 'no-writer');

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Runs `fn` `runs` times for each writer setting, interleaved so drift hits both alike. */
async function both<T extends Record<string, number>>(name: string, fn: (fw: boolean) => Promise<T>): Promise<Record<'writer' | 'no-writer', T>> {
  const out: Record<string, T[]> = { writer: [], 'no-writer': [] };
  for (let i = 0; i < runs; i++) {
    for (const fw of WRITERS) {
      const r = await fn(fw);
      log(`  ${name} ${label(fw)} run ${i + 1}: ${Object.entries(r).map(([k, v]) => `${k}=${v.toFixed(2)}`).join(' ')}`);
      out[label(fw)]!.push(r);
    }
  }
  return { writer: medianOf(out['writer']!), 'no-writer': medianOf(out['no-writer']!) };
}

const markdown = generateMarkdown(5000);
const tail = markdown.trimEnd().split(/\s+/).slice(-2).join(' ');
const rows: GoalRow[] = [];
const info: string[] = [];
log(`cairn TUI bench: ${runs} run(s) each; streamed answer = generateMarkdown(5000), ${markdown.length} characters in 4-character deltas`);

let proc: ProcessTimes | undefined;
if (want('startup') || want('fast')) {
  const all: ProcessTimes[] = [];
  for (let i = 0; i < Math.max(runs, 5); i++) all.push(measureProcessTimes('stream 5000'));
  proc = medianOf(all);
  log(`  node -e 0 ${proc.nodeMs.toFixed(1)} ms, --version ${proc.versionMs.toFixed(1)} ms, headless stream 5000 ${proc.headlessMs.toFixed(0)} ms`);
}

if (want('startup') && proc) {
  const ff = await both<FrameTimes>('first frame', (fw) => measureFirstFrame(fw));
  const v = proc.versionMs / proc.nodeMs;
  rows.push({ goal: '`cairn --version` / `node -e 0`', target: '<= 1.5x', measured: `${fmt.x(v)} (${fmt.ms(proc.versionMs)} / ${fmt.ms(proc.nodeMs)})`, baseline: '', pass: v <= 1.5 });
  const w = ff.writer;
  const n = ff['no-writer'];
  rows.push({ goal: 'first interactive frame', target: '<= 300 ms', measured: fmt.ms(w.firstFrameMs), baseline: fmt.ms(n.firstFrameMs), pass: w.firstFrameMs <= 300 });
  rows.push({
    goal: 'first frame / bare node prompt',
    target: '<= 3x',
    measured: `${fmt.x(w.firstFrameMs / w.bareMs)} (bare ${fmt.ms(w.bareMs)})`,
    baseline: fmt.x(n.firstFrameMs / n.bareMs),
    pass: w.firstFrameMs / w.bareMs <= 3,
  });
  info.push(`first frame / node -e 0: ${fmt.x(w.firstFrameMs / proc.nodeMs)}`);
}

if (want('paced')) {
  const paced = await both<StreamRun>('paced', (fw) => measureStream({ prompt: 'stream 5000 at 200/s', chars: markdown.length, tail, frameWriter: fw }));
  const w = paced.writer;
  const n = paced['no-writer'];
  rows.push({ goal: 'paced (200 deltas/s): bytes per streamed char', target: '<= 3', measured: fmt.n(w.bytesPerChar), baseline: fmt.n(n.bytesPerChar), pass: w.bytesPerChar <= 3 });
  rows.push({ goal: 'paced: CPU during the stream', target: '<= 15% of a core', measured: `${fmt.pct(w.cpuPercent)} (${fmt.n(w.cpuSeconds)} s)`, baseline: `${fmt.pct(n.cpuPercent)} (${fmt.n(n.cpuSeconds)} s)`, pass: w.cpuPercent <= 15 });
  rows.push({ goal: 'paced: peak RSS', target: '<= 150 MB', measured: fmt.mb(w.peakRssMb), baseline: fmt.mb(n.peakRssMb), pass: w.peakRssMb <= 150 });
  rows.push({ goal: 'idle after the answer: bytes in 5 s', target: '0', measured: String(w.idleBytes), baseline: String(n.idleBytes), pass: w.idleBytes === 0 });
  rows.push({ goal: 'idle after the answer: CPU over 5 s', target: '< 0.2%', measured: fmt.pct(w.idleCpuPercent), baseline: fmt.pct(n.idleCpuPercent), pass: w.idleCpuPercent < 0.2 });
  info.push(`paced stream wall time: ${fmt.ms(w.onScreenMs)} (no writer ${fmt.ms(n.onScreenMs)})`);
}

if (want('fast')) {
  const fast = await both<StreamRun>('fast', (fw) => measureStream({ prompt: 'stream 5000', chars: markdown.length, tail, frameWriter: fw, idleMs: 1000 }));
  const w = fast.writer;
  const n = fast['no-writer'];
  rows.push({ goal: 'as fast as possible: bytes per streamed char', target: '<= 2', measured: fmt.n(w.bytesPerChar), baseline: fmt.n(n.bytesPerChar), pass: w.bytesPerChar <= 2 });
  if (proc) {
    const h = proc.headlessMs;
    rows.push({
      goal: 'whole answer on screen / headless `-p` wall time',
      target: '<= 1.5x',
      measured: `${fmt.x(w.onScreenMs / h)} (${fmt.ms(w.onScreenMs)} / ${fmt.ms(h)})`,
      baseline: fmt.x(n.onScreenMs / h),
      pass: w.onScreenMs / h <= 1.5,
    });
  }
  info.push(`fast stream: CPU ${fmt.n(w.cpuSeconds)} s, peak RSS ${fmt.mb(w.peakRssMb)} (no writer: ${fmt.n(n.cpuSeconds)} s, ${fmt.mb(n.peakRssMb)})`);
}

if (want('keys')) {
  const keys = await both<StreamKeysRun>('keys', (fw) => measureKeysDuringStream('stream 2000 at 200/s', fw));
  const w = keys.writer;
  const n = keys['no-writer'];
  rows.push({ goal: 'keypress to screen p95, during a paced stream', target: '< 30 ms', measured: `${fmt.ms(w.p95Ms)} (p50 ${fmt.ms(w.p50Ms)})`, baseline: `${fmt.ms(n.p95Ms)} (p50 ${fmt.ms(n.p50Ms)})`, pass: w.p95Ms < 30 });
}

if (want('session')) {
  const sizes = [10, 100, 10_000];
  const by: Record<number, Record<'writer' | 'no-writer', SessionRun>> = {};
  for (const size of sizes) by[size] = await both<SessionRun>(`session ${size}`, (fw) => measureSession(size, fw));
  const small = by[10]!;
  const big = by[10_000]!;
  const hundred = by[100]!;
  const ratio = (k: keyof SessionRun, fw: 'writer' | 'no-writer', a = big, b = small): number => a[fw][k]! / b[fw][k]!;
  const shown = big.writer.historyShown === 1 ? '' : ' (resumed history not shown in the transcript!)';
  rows.push({
    goal: `keystroke frame, 10,000 vs 10 messages${shown}`,
    target: '<= 1.2x',
    measured: `${fmt.x(ratio('keyMs', 'writer'))} (${fmt.ms(big.writer.keyMs)} vs ${fmt.ms(small.writer.keyMs)}, ${big.writer.keyBytes} vs ${small.writer.keyBytes} B)`,
    baseline: `${fmt.x(ratio('keyMs', 'no-writer'))} (${big['no-writer'].keyBytes} vs ${small['no-writer'].keyBytes} B)`,
    pass: ratio('keyMs', 'writer') <= 1.2,
  });
  rows.push({
    // 10 messages fit on one screen: nothing scrolls, so the scroll step is compared with 100.
    goal: `scroll step (PageUp/Down), 10,000 vs 100 messages${shown}`,
    target: '<= 1.2x',
    measured: `${fmt.x(ratio('scrollMs', 'writer', big, hundred))} (${fmt.ms(big.writer.scrollMs)} vs ${fmt.ms(hundred.writer.scrollMs)}, ${big.writer.scrollBytes} vs ${hundred.writer.scrollBytes} B)`,
    baseline: `${fmt.x(ratio('scrollMs', 'no-writer', big, hundred))} (${big['no-writer'].scrollBytes} vs ${hundred['no-writer'].scrollBytes} B)`,
    pass: ratio('scrollMs', 'writer', big, hundred) <= 1.2,
  });
  rows.push({
    goal: `RSS, 10,000 vs 100 messages${shown}`,
    target: '<= 1.5x',
    measured: `${fmt.x(ratio('rssMb', 'writer', big, hundred))} (${fmt.mb(big.writer.rssMb)} vs ${fmt.mb(hundred.writer.rssMb)})`,
    baseline: fmt.x(ratio('rssMb', 'no-writer', big, hundred)),
    pass: ratio('rssMb', 'writer', big, hundred) <= 1.5,
  });
  info.push(`resume to first frame: 10 messages ${fmt.ms(small.writer.openMs)}, 10,000 messages ${fmt.ms(big.writer.openMs)}`);
}

if (want('mcp')) {
  // Issue 20: three MCP servers that take 1.5 s each to answer the handshake must not delay the frame.
  const all: McpFrameTimes[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await measureMcpFirstFrame(1_500, i % 2 === 0);
    log(`  mcp first frame run ${i + 1}: none=${r.noneMs.toFixed(0)} three=${r.threeMs.toFixed(0)} all connected=${r.connectedMs.toFixed(0)}`);
    all.push(r);
  }
  const m = medianOf(all);
  const slower = m.threeMs / m.noneMs;
  rows.push({ goal: 'first frame, 3 slow MCP servers (1.5 s) / none (baseline column: none)', target: '<= 1.1x', measured: `${fmt.x(slower)} (${fmt.ms(m.threeMs)})`, baseline: fmt.ms(m.noneMs), pass: slower <= 1.1 });
  info.push(`3 slow MCP servers: all connected ${fmt.ms(m.connectedMs)} after spawn`);
}

process.stdout.write(`\n${goalTable(rows)}\n\n${info.map((l) => `- ${l}`).join('\n')}\n`);
