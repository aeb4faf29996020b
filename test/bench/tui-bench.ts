// `npm run bench:tui`: the built cairn in a 120x40 pseudo-terminal, measured against issue 22's goals,
// with the offline model and through the Anthropic and OpenAI providers against loopback protocol
// servers; with and without the cell-diff frame writer where that comparison means something.
// Median of --runs=N (>= 3).
//   node dist/test/bench/tui-bench.js [--runs=3] [--only=startup,paced,fast,keys,session,mcp,subagents,bash,soak,tmux]
//     [--providers=offline,anthropic,openai] [--soak-turns=2000]
import { generateMarkdown } from '../../src/providers/offline-markdown.js';
import { fmt, goalTable, type GoalRow } from './tui/goals.js';
import { measureKeysDuringStream, type StreamKeysRun } from './tui/measure-keys.js';
import { measureMcpFirstFrame, type McpFrameTimes } from './tui/measure-mcp-startup.js';
import { measureSession, type SessionRun } from './tui/measure-session.js';
import { measureFirstFrame, measureProcessTimes, type FrameTimes, type ProcessTimes } from './tui/measure-startup.js';
import { measureStream, type StreamRun } from './tui/measure-stream.js';
import { medianOf } from './tui/stats.js';
import type { BenchProvider } from './tui/provider-server.js';
import { measureSubagents } from './tui/measure-subagents.js';
import { measureBashFlood, type BashFloodRun } from './tui/measure-bash.js';
import { measureSoak, soakSummary } from './tui/measure-soak.js';
import { measureTmuxFirstFrame, measureTmuxStream, tmuxAvailable, type TmuxFrameRun, type TmuxStreamRun } from './tui/measure-tmux.js';

const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const runs = Math.max(1, Number(arg('runs') ?? 3));
const only = arg('only')?.split(',');
const want = (part: string): boolean => !only || only.includes(part);
const WRITERS = [true, false] as const;
const providers = (arg('providers')?.split(',') ?? ['offline', 'anthropic', 'openai']) as BenchProvider[];
const label = (fw: boolean): string => (fw ? 'writer' : 'no-writer');

function log(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Runs `fn` `runs` times for each writer setting, interleaved so drift hits both alike. */
async function both<T extends Record<string, number>>(name: string, fn: (fw: boolean) => Promise<T>, writers: readonly boolean[] = WRITERS): Promise<Record<'writer' | 'no-writer', T>> {
  const out: Record<string, T[]> = { writer: [], 'no-writer': [] };
  for (let i = 0; i < runs; i++) {
    for (const fw of writers) {
      const r = await fn(fw);
      log(`  ${name} ${label(fw)} run ${i + 1}: ${Object.entries(r).map(([k, v]) => `${k}=${v.toFixed(2)}`).join(' ')}`);
      out[label(fw)]!.push(r);
    }
  }
  const writer = medianOf(out['writer']!);
  return { writer, 'no-writer': out['no-writer']!.length > 0 ? medianOf(out['no-writer']!) : writer };
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
  rows.push({ goal: 'first interactive frame', target: '<= 250 ms', measured: fmt.ms(w.firstFrameMs), baseline: fmt.ms(n.firstFrameMs), pass: w.firstFrameMs <= 250 });
  rows.push({
    goal: 'first frame / bare node prompt',
    target: '<= 2.5x',
    measured: `${fmt.x(w.firstFrameMs / w.bareMs)} (bare ${fmt.ms(w.bareMs)})`,
    baseline: fmt.x(n.firstFrameMs / n.bareMs),
    pass: w.firstFrameMs / w.bareMs <= 2.5,
  });
  info.push(`first frame / node -e 0: ${fmt.x(w.firstFrameMs / proc.nodeMs)}`);
  info.push(`a key typed as the first frame shows is in the prompt ${fmt.ms(w.firstKeyMs)} after spawn (no writer: ${fmt.ms(n.firstKeyMs)})`);
}

if (want('paced')) {
  for (const provider of providers) {
    // Ink on its own is the baseline column for the offline model only (it is the same screen either way).
    const writers = provider === 'offline' ? WRITERS : ([true] as const);
    const paced = await both<StreamRun>(`paced ${provider}`, (fw) => measureStream({ prompt: 'stream 5000 at 200/s', chars: markdown.length, tail, frameWriter: fw, provider }), writers);
    const w = paced.writer;
    const n = paced['no-writer'];
    const base = (v: string): string => (provider === 'offline' ? v : '');
    rows.push({ goal: `paced (200 deltas/s), ${provider}: bytes per streamed char`, target: '<= 2.0', measured: fmt.n(w.bytesPerChar), baseline: base(fmt.n(n.bytesPerChar)), pass: w.bytesPerChar <= 2 });
    rows.push({ goal: `paced, ${provider}: CPU during the stream`, target: '<= 12% of a core', measured: `${fmt.pct(w.cpuPercent)} (${fmt.n(w.cpuSeconds)} s)`, baseline: base(`${fmt.pct(n.cpuPercent)} (${fmt.n(n.cpuSeconds)} s)`), pass: w.cpuPercent <= 12 });
    rows.push({ goal: `paced, ${provider}: peak RSS`, target: '<= 140 MB', measured: fmt.mb(w.peakRssMb), baseline: base(fmt.mb(n.peakRssMb)), pass: w.peakRssMb <= 140 });
    rows.push({ goal: `idle after the answer, ${provider}: bytes in 5 s / CPU`, target: '0 / < 0.2%', measured: `${w.idleBytes} / ${fmt.pct(w.idleCpuPercent)}`, baseline: base(`${n.idleBytes} / ${fmt.pct(n.idleCpuPercent)}`), pass: w.idleBytes === 0 && w.idleCpuPercent < 0.2 });
    info.push(`paced stream wall time, ${provider}: ${fmt.ms(w.onScreenMs)}`);
  }
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
  for (const provider of providers) {
    const writers = provider === 'offline' ? WRITERS : ([true] as const);
    const keys = await both<StreamKeysRun>(`keys ${provider}`, (fw) => measureKeysDuringStream('stream 2000 at 200/s', fw, 80, provider), writers);
    const w = keys.writer;
    const n = keys['no-writer'];
    rows.push({
      goal: `keypress to screen during a paced stream, ${provider}: p95 / p50`,
      target: '<= 25 / 12 ms',
      measured: `${fmt.ms(w.p95Ms)} / ${fmt.ms(w.p50Ms)}`,
      baseline: provider === 'offline' ? `${fmt.ms(n.p95Ms)} / ${fmt.ms(n.p50Ms)}` : '',
      pass: w.p95Ms <= 25 && w.p50Ms <= 12,
    });
  }
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
  rows.push({ goal: 'resume a 10,000-message session: first frame', target: '<= 300 ms', measured: fmt.ms(big.writer.openMs), baseline: fmt.ms(big['no-writer'].openMs), pass: big.writer.openMs <= 300 });
  info.push(`resume to first frame: 10 messages ${fmt.ms(small.writer.openMs)}, 100 messages ${fmt.ms(hundred.writer.openMs)}`);
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

if (want('subagents')) {
  // Issue 22: eight subagents streaming at once (offline `stream 1000 at 200/s` in each) vs one main stream.
  const all: Record<string, number>[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await measureSubagents(true);
    log(`  subagents run ${i + 1}: main ${r['mainCpuSeconds']?.toFixed(2)} s, eight ${r['eightCpuSeconds']?.toFixed(2)} s, ratio ${r['eightOverMainCpu']?.toFixed(2)}, slowest frame ${r['eightFrameMsMax']?.toFixed(1)} ms`);
    all.push(r);
  }
  const m = medianOf(all);
  const ratio = m['eightOverMainCpu'] ?? NaN;
  const slowest = Math.max(m['eightFrameMsMax'] ?? NaN, m['mainFrameMsMax'] ?? NaN);
  rows.push({ goal: '8 subagents streaming / one main stream: CPU', target: '<= 2x', measured: `${fmt.x(ratio)} (${fmt.n(m['eightCpuSeconds'] ?? NaN)} s vs ${fmt.n(m['mainCpuSeconds'] ?? NaN)} s)`, baseline: '', pass: ratio <= 2 });
  rows.push({ goal: 'slowest frame to build (8 subagents; one stream)', target: '<= 50 ms', measured: `${fmt.ms(m['eightFrameMsMax'] ?? NaN)}; ${fmt.ms(m['mainFrameMsMax'] ?? NaN)}`, baseline: '', pass: slowest <= 50 });
  info.push(`longest event-loop stall: 8 subagents ${fmt.ms(m['eightLoopDelayMaxMs'] ?? NaN)}, one stream ${fmt.ms(m['mainLoopDelayMaxMs'] ?? NaN)}`);
}

if (want('bash')) {
  // Issue 22: a bash tool printing 100,000 lines over 8 s; bytes compared with 1,000 lines in the same time.
  const small: BashFloodRun[] = [];
  const big: BashFloodRun[] = [];
  for (let i = 0; i < runs; i++) {
    for (const [lines, into] of [[1_000, small], [100_000, big]] as const) {
      const r = await measureBashFlood(lines, true);
      log(`  bash ${lines} lines run ${i + 1}: bytes=${r.bytes} keyP95=${r.keyP95Ms.toFixed(1)} keyP50=${r.keyP50Ms.toFixed(1)} cpu=${r.cpuPercent.toFixed(1)}% rss=${r.peakRssMb.toFixed(0)}`);
      into.push(r);
    }
  }
  const s1 = medianOf(small);
  const s2 = medianOf(big);
  rows.push({ goal: 'bash printing 100,000 lines: keypress p95 (p50)', target: '< 50 ms', measured: `${fmt.ms(s2.keyP95Ms)} (${fmt.ms(s2.keyP50Ms)})`, baseline: '', pass: s2.keyP95Ms < 50 });
  rows.push({ goal: 'bash: bytes written, 100,000 vs 1,000 lines', target: 'bounded by the card', measured: `${fmt.x(s2.bytes / s1.bytes)} (${s2.bytes} vs ${s1.bytes} B)`, baseline: '', pass: s2.bytes / s1.bytes <= 1.5 });
  info.push(`bash 100,000 lines: CPU ${fmt.pct(s2.cpuPercent)}, peak RSS ${fmt.mb(s2.peakRssMb)}, slowest frame ${fmt.ms(s2.frameMsMax)}`);
}

if (want('soak')) {
  // Issue 22: printed, not a pass/fail table row beyond the ratios; one run (it takes a while).
  const turns = Number(arg('soak-turns') ?? 2000);
  const r = await measureSoak(turns, { log });
  for (const line of soakSummary(r)) info.push(line);
  rows.push({ goal: `soak, ${turns} turns: RSS after the last turn / after turn 100`, target: '<= 1.2x', measured: `${fmt.x(r.rssRatio)} (${fmt.mb(r.rssMbLast)} / ${fmt.mb(r.rssMb100)})`, baseline: '', pass: r.rssRatio <= 1.2 });
  rows.push({ goal: 'soak: frame cost, last window / window at turn 100', target: 'flat', measured: `${fmt.x(r.frameCostRatio)} (${fmt.n(r.frameMsLast, 3)} / ${fmt.n(r.frameMs100, 3)} ms)`, baseline: '', pass: r.frameCostRatio <= 1.2 });
  rows.push({ goal: 'soak: timers, fds (turn 100 -> last)', target: 'no growth', measured: `timers ${r.timers100} -> ${r.timersLast}, fds ${r.fds100} -> ${r.fdsLast}`, baseline: '', pass: r.timersLast <= r.timers100 && r.fdsLast <= r.fds100 });
}

if (want('tmux')) {
  // Issue 39 item 3: tmux as the terminal. The paced answer through the Anthropic provider, cairn against a
  // program that only prints each delta (interleaved, one of each per run), and spawn to first frame.
  if (!tmuxAvailable()) throw new Error('bench tmux: tmux is not installed');
  const cairn: TmuxStreamRun[] = [];
  const floor: TmuxStreamRun[] = [];
  const frames: TmuxFrameRun[] = [];
  for (let i = 0; i < runs; i++) {
    for (const [who, into] of [['floor', floor], ['cairn', cairn]] as const) {
      const r = await measureTmuxStream(who, 'stream 5000 at 200/s', markdown.length, tail);
      log(`  tmux paced ${who} run ${i + 1}: ${Object.entries(r).map(([k, v]) => `${k}=${v.toFixed(2)}`).join(' ')}`);
      into.push(r);
    }
    const f = await measureTmuxFirstFrame();
    log(`  tmux first frame run ${i + 1}: bare ${f.bareMs.toFixed(0)} ms, cairn ${f.firstFrameMs.toFixed(0)} ms`);
    frames.push(f);
  }
  const c = medianOf(cairn);
  const fl = medianOf(floor);
  const f = medianOf(frames);
  rows.push({ goal: 'tmux, paced (Anthropic): CPU during the stream', target: '<= 10% and <= 1.5x the floor', measured: `${fmt.pct(c.cpuPercent)} (${fmt.x(c.cpuPercent / fl.cpuPercent)} the floor's ${fmt.pct(fl.cpuPercent)})`, baseline: '', pass: c.cpuPercent <= 10 && c.cpuPercent / fl.cpuPercent <= 1.5 });
  rows.push({ goal: 'tmux, paced: peak RSS', target: '<= 110 MB', measured: `${fmt.mb(c.peakRssMb)} (floor ${fmt.mb(fl.peakRssMb)})`, baseline: '', pass: c.peakRssMb <= 110 });
  rows.push({ goal: 'tmux, paced: bytes per streamed char', target: '<= 3', measured: `${fmt.n(c.bytesPerChar)} (floor ${fmt.n(fl.bytesPerChar)})`, baseline: '', pass: c.bytesPerChar <= 3 });
  rows.push({ goal: 'tmux: first frame', target: '<= 250 ms', measured: `${fmt.ms(f.firstFrameMs)} (${fmt.x(f.firstFrameMs / f.bareMs)} a bare node prompt's ${fmt.ms(f.bareMs)})`, baseline: '', pass: f.firstFrameMs <= 250 });
}

process.stdout.write(`\n${goalTable(rows)}\n\n${info.map((l) => `- ${l}`).join('\n')}\n`);
