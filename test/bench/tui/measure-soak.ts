// Issue 22's soak: the built cairn in a 120x40 pty on the offline model for `turns` turns (2,000 by
// default) on a compressed clock (CAIRN_CLOCK_SPEED), so the run spans about three simulated hours.
// A fixed cycle of prompts (writes, reads, edits, greps, short streams, a bash echo, lists,
// thinking, a chat line, a two-step plan), /compact every 100 turns, auto compaction from a low
// CAIRN_COMPACT_THRESHOLD, and a cron job scheduled first ("*/5 * * * *") that fires about every
// 5 simulated minutes. Every 100 turns the in-app probe (CAIRN_BENCH_STATS + SIGUSR2) is read
// with the open file descriptors, threads, child processes and the session file's size; a table
// row is printed each time and a summary at the end: RSS last / turn 100, mean frame cost of the
// last window / the window ending at turn 100, timers (Timeout), handles and fds at turn 100 and last.
// Measured and printed, not asserted.
//
// Approvals: `--permission-mode acceptEdits` (write_file / edit_file inside the workspace) and
// `--allowed-tools "Bash(echo:*)" cron_create` (the one bash command the cycle runs and the cron
// tool, which asks otherwise); reads, greps and lists need nothing. No workspace settings file:
// an untrusted folder's allow rules wait for the trust question, the command-line ones do not.
//
//   node dist/test/bench/tui/measure-soak.js [turns] [--speed=N] [--snapshots=DIR] [--timer-sites]
//     [--cpu-prof=DIR] [--no-gc] [--main=dist/other-bundle/main.js]
import { cpSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, readSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchEnv, CAIRN_MAIN, createSandbox, PROMPT_VISIBLE, type Sandbox } from './cairn-pty.js';
import { PtyApp, sleep } from './pty-app.js';

/**
 * CAIRN_CLOCK_SPEED by default: 2,000 turns then span about 3 simulated hours on the 2-core bench
 * machine. The first 1,000 turns took 542 s real at 11x (100 simulated minutes, the 10 idle waits
 * for a cron firing included) and later turns are slower while frame cost grows with the
 * transcript, so 2,000 turns take ~1,100-1,300 s: ~3-3.5 simulated hours at 10x. `--speed=N`
 * overrides it; the summary prints the simulated span the run really covered.
 */
export const DEFAULT_CLOCK_SPEED = 10;
/** Auto compaction after about this many tokens of context (a few dozen turns of the cycle). */
const COMPACT_THRESHOLD = 6000;
const CRON = '*/5 * * * *';
const CRON_PROMPT = 'read cron.txt';
const BUSY = 'Type to queue a prompt';
const APPROVAL = 'waiting for approval';
const CRON_NOTICE = 'cron fired';
const ALLOWED = ['Bash(echo:*)', 'cron_create'];

/**
 * Loaded into the app with --import: the probe's `Timeout` count (process.getActiveResourcesInfo)
 * sees only timers that keep the loop alive, and the scaled clock and the cron scheduler unref
 * theirs. This counts every live setTimeout / setInterval (set, not yet fired or cleared) and the
 * listeners on process, stdin and stdout, and appends them as one JSON line per SIGUSR2 to
 * $SOAK_TIMERS_FILE. With SOAK_TIMER_SITES=1 it also groups live timers by the line that set them.
 * With SOAK_GC=1 (and --expose-gc) it runs a full GC first: its SIGUSR2 listener is registered
 * before the app's, so the probe's heap is the live size and RSS does not depend on when V8 last
 * collected.
 */
const TIMERS_PRELOAD = `
import { appendFileSync } from 'node:fs';
const file = process.env.SOAK_TIMERS_FILE;
const sites = process.env.SOAK_TIMER_SITES === '1';
const live = new Map();
const origSetTimeout = globalThis.setTimeout;
const origSetInterval = globalThis.setInterval;
const origClearTimeout = globalThis.clearTimeout;
const origClearInterval = globalThis.clearInterval;
const site = () => {
  if (!sites) return '';
  const lines = (new Error().stack ?? '').split('\\n').slice(3, 8).map((l) => l.trim().replace(/^at /, ''));
  return lines.join(' < ');
};
globalThis.setTimeout = function (fn, ms, ...args) {
  if (typeof fn !== 'function') return origSetTimeout(fn, ms, ...args);
  let t;
  t = origSetTimeout(function (...a) { live.delete(t); return fn.apply(this, a); }, ms, ...args);
  live.set(t, { kind: 'timeout', site: site() });
  return t;
};
globalThis.setInterval = function (fn, ms, ...args) {
  const t = origSetInterval(fn, ms, ...args);
  live.set(t, { kind: 'interval', site: site() });
  return t;
};
const forget = (t) => {
  if (t && typeof t === 'object') live.delete(t);
  else if (t !== undefined) for (const k of live.keys()) if (k[Symbol.toPrimitive] && +k === +t) live.delete(k);
};
globalThis.clearTimeout = function (t) { forget(t); return origClearTimeout(t); };
globalThis.clearInterval = function (t) { forget(t); return origClearInterval(t); };
const proto = Object.getPrototypeOf(origSetTimeout(() => undefined, 0));
const origClose = proto.close;
proto.close = function () { live.delete(this); return origClose.call(this); };
const listeners = (emitter) => {
  let n = 0;
  for (const name of emitter.eventNames()) n += emitter.listenerCount(name);
  return n;
};
if (file) process.on('SIGUSR2', () => {
  if (process.env.SOAK_GC === '1' && typeof globalThis.gc === 'function') globalThis.gc();
  let timeouts = 0, intervals = 0;
  const bySite = {};
  for (const v of live.values()) {
    if (v.kind === 'timeout') timeouts++; else intervals++;
    if (sites) bySite[v.kind + ' ' + v.site] = (bySite[v.kind + ' ' + v.site] ?? 0) + 1;
  }
  const line = { timeouts, intervals, processListeners: listeners(process), stdinListeners: listeners(process.stdin), stdoutListeners: listeners(process.stdout) };
  if (sites) line.sites = Object.fromEntries(Object.entries(bySite).sort((a, b) => b[1] - a[1]).slice(0, 15));
  appendFileSync(file, JSON.stringify(line) + '\\n');
});
`;

/** The prompt for turn `n` (1-based): a fixed cycle of ten, /compact at turn 49 of every 100. */
export function soakPrompt(n: number): string {
  // In place of a chat turn (not the write: the edit after it would find no "alpha").
  if (n % 100 === 49) return '/compact';
  // One file per cycle of ten (five in rotation): the write puts "alpha" back, so the edit that
  // follows finds it (with n % 5 every edit after the first hit a file it had already changed).
  const k = Math.floor(n / 10) % 5;
  switch (n % 10) {
    case 0: return `write soak line ${n} alpha to s${k}.txt`;
    case 1: return `read s${k}.txt`;
    case 2: return `edit s${k}.txt: replace alpha with beta`;
    case 3: return 'grep beta';
    case 4: return 'stream 50';
    case 5: return `run echo soak turn ${n}`;
    case 6: return 'list';
    case 7: return `think about soak turn ${n}`;
    case 8: return `read s${k}.txt then write done ${n} to t.txt`;
    default: return `how is soak turn ${n} going`;
  }
}

/** One line of the in-app probe (components/terminal/frame-stats.ts). */
interface ProbeLine {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
  resources: Record<string, number>;
  frames: number;
  frameMsMax: number;
  frameMsTotal: number;
  loopDelayMaxMs: number;
}

/** One line of TIMERS_PRELOAD. */
interface TimersLine {
  timeouts: number;
  intervals: number;
  processListeners: number;
  stdinListeners: number;
  stdoutListeners: number;
  sites?: Record<string, number>;
}

export interface SoakSample {
  turn: number;
  wallS: number;
  simMin: number;
  /** Mean and longest turn (Enter to the idle prompt box) since the previous sample, ms. */
  turnMs: number;
  turnMsMax: number;
  rssMb: number;
  heapMb: number;
  extMb: number;
  /** The probe's `Timeout` count: timers that keep the loop alive (ref'ed). */
  timers: number;
  /** Every live setTimeout / setInterval, unref'ed ones included (TIMERS_PRELOAD). */
  liveTimeouts: number;
  liveIntervals: number;
  /** Listeners on process + stdin + stdout. */
  listeners: number;
  timerSites?: Record<string, number>;
  handles: number;
  resources: Record<string, number>;
  fds: number;
  fdKinds: Record<string, number>;
  threads: number;
  children: number;
  /** Frames drawn since the previous sample, their mean and slowest build+write time. */
  frames: number;
  frameMean: number;
  frameMax: number;
  loopMaxMs: number;
  sessionKb: number;
  compacts: number;
  autoCompacts: number;
  cronFired: number;
  cronTurns: number;
}

export interface SoakRun extends Record<string, number> {
  turns: number;
  wallSeconds: number;
  msPerTurn: number;
  clockSpeed: number;
  simulatedHours: number;
  cronFired: number;
  cronShown: number;
  cronTurns: number;
  compactions: number;
  autoCompactions: number;
  toolErrors: number;
  rssMb100: number;
  rssMbLast: number;
  rssRatio: number;
  heapMb100: number;
  heapMbLast: number;
  frameMs100: number;
  frameMsLast: number;
  frameCostRatio: number;
  frameMsMax100: number;
  frameMsMaxLast: number;
  timers100: number;
  timersLast: number;
  liveTimeouts100: number;
  liveTimeoutsLast: number;
  liveIntervals100: number;
  liveIntervalsLast: number;
  listeners100: number;
  listenersLast: number;
  handles100: number;
  handlesLast: number;
  fds100: number;
  fdsLast: number;
  sessionKbLast: number;
}

export interface SoakOptions {
  /** CAIRN_CLOCK_SPEED (DEFAULT_CLOCK_SPEED). */
  clockSpeed?: number;
  /** Sample every this many turns (100). */
  every?: number;
  /** Where the table and summary go (stderr). */
  log?: (line: string) => void;
  /**
   * Run the app with --heapsnapshot-signal=SIGUSR1 and write a heap snapshot here after the last
   * sample. Only then: writing a snapshot grows the app's RSS for good (~170 MB in a 2,000-turn
   * run), so a snapshot at turn 100 would spoil the RSS ratio. Compare with the snapshot of a
   * 100-turn run (same cycle, same turns) to see what the long run retains.
   */
  snapshotDir?: string;
  /**
   * A full GC in the app just before each sample (default true): heap is then the live size, and
   * RSS is compared after a collection at both ends. Its pause lands in the next window's loop stall.
   */
  gcBeforeSample?: boolean;
  /** The app's entry (CAIRN_MAIN): another build of the bundle, for an A/B run. Its folder is copied; keep it under dist/. */
  main?: string;
  /** More node flags for the app (e.g. --cpu-prof --cpu-prof-dir=DIR: written when it exits at the end). */
  nodeArgs?: string[];
  /** Group live timers by the code that set them (costs a stack trace per timer; for finding a leak). */
  timerSites?: boolean;
  /** Called with each sample as it is taken. */
  onSample?: (sample: SoakSample) => void;
}

/** The session file as it grows: what the bench waits on (turn ends, compactions, cron firings). */
class SessionTail {
  /** Compact records of what happened, in order. */
  readonly events: { type: string; text?: string; trigger?: string; status?: string }[] = [];
  cronFired = 0;
  /** Firings whose notice ("⏰ cron fired") was on screen while the bench watched. */
  cronShown = 0;
  cronTurns = 0;
  compacts = 0;
  autoCompacts = 0;
  /** Tool calls that failed: the cycle is meant to have none (a failing one would test the error path instead). */
  toolErrors = 0;
  /** The first few failures, "name: content", for the log. */
  readonly toolErrorTexts: string[] = [];
  private file: string | undefined;
  private offset = 0;
  private rest = '';

  constructor(private readonly home: string) {}

  poll(): void {
    if (!this.file) this.file = this.find();
    if (!this.file) return;
    const fd = openSync(this.file, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= this.offset) return;
      const buf = Buffer.alloc(size - this.offset);
      readSync(fd, buf, 0, buf.length, this.offset);
      this.offset = size;
      const lines = (this.rest + buf.toString('utf8')).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') this.add(JSON.parse(line) as Record<string, unknown>);
    } finally {
      closeSync(fd);
    }
  }

  sizeKb(): number {
    return this.file ? statSync(this.file).size / 1024 : 0;
  }

  private add(e: Record<string, unknown>): void {
    const type = String(e['type']);
    if (type === 'user_prompt') {
      const text = String(e['text']);
      this.events.push({ type, text });
      const prev = this.events[this.events.length - 2];
      if (text === CRON_PROMPT && prev?.type === 'cron') this.cronTurns++;
    } else if (type === 'tool_result') {
      if (e['is_error'] === true) {
        this.toolErrors++;
        if (this.toolErrorTexts.length < 3) this.toolErrorTexts.push(`${String(e['name'])}: ${String(e['content']).slice(0, 200)}`);
      }
    } else if (type === 'terminal') {
      this.events.push({ type });
    } else if (type === 'compact') {
      const trigger = String(e['trigger']);
      this.compacts++;
      if (trigger !== 'manual') this.autoCompacts++;
      this.events.push({ type, trigger });
    } else if (type === 'cron') {
      const status = String(e['status']);
      if (status === 'fired') this.cronFired++;
      this.events.push({ type, status });
    }
  }

  /** The session file: projects/<workspace slug>/<id>.jsonl, once the first prompt made it. */
  private find(): string | undefined {
    const projects = path.join(this.home, 'projects');
    if (!existsSync(projects)) return undefined;
    for (const dir of readdirSync(projects)) {
      const files = readdirSync(path.join(projects, dir)).filter((f) => f.endsWith('.jsonl'));
      if (files[0]) return path.join(projects, dir, files[0]);
    }
    return undefined;
  }
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
  } catch {
    return [];
  }
}

/** Sends SIGUSR2 and waits for the next line of the app's probe and of the timers preload. */
async function probe(app: PtyApp, file: string, timersFile: string): Promise<{ app: ProbeLine; timers: TimersLine }> {
  const before = readLines(file).length;
  const timersBefore = readLines(timersFile).length;
  process.kill(app.pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 20) {
    const line = readLines(file)[before];
    const timers = readLines(timersFile)[timersBefore];
    if (line && timers) return { app: JSON.parse(line) as ProbeLine, timers: JSON.parse(timers) as TimersLine };
    await sleep(20);
  }
  throw new Error(`no probe line in ${file} or ${timersFile} 10 s after SIGUSR2`);
}

/** Open file descriptors of `pid`, counted by kind (socket, pipe, anon_inode:[eventfd], tty, file). */
function fdKinds(pid: number): Record<string, number> {
  const dir = `/proc/${pid}/fd`;
  const kinds: Record<string, number> = {};
  for (const fd of readdirSync(dir)) {
    let target: string;
    try {
      target = readlinkSync(`${dir}/${fd}`);
    } catch {
      continue; // closed between the listing and the readlink
    }
    const kind = /^(socket|pipe):/.test(target)
      ? target.slice(0, target.indexOf(':'))
      : target.startsWith('anon_inode:')
        ? target
        : target.startsWith('/dev/pts') || target === '/dev/ptmx' || target === '/dev/tty'
          ? 'tty'
          : target.startsWith('/dev/')
            ? target
            : 'file';
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

function threadsAndChildren(pid: number): { threads: number; children: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const threads = Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? NaN);
  let children = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      children += readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).length;
    }
  } catch {
    children = NaN;
  }
  return { threads, children };
}

const sum = (r: Record<string, number>): number => Object.values(r).reduce((a, b) => a + b, 0);

const COLUMNS: [string, number, (s: SoakSample) => string][] = [
  ['turn', 5, (s) => String(s.turn)],
  ['wall s', 7, (s) => s.wallS.toFixed(0)],
  ['sim min', 7, (s) => s.simMin.toFixed(0)],
  ['turn ms', 7, (s) => s.turnMs.toFixed(0)],
  ['max', 5, (s) => s.turnMsMax.toFixed(0)],
  ['rss MB', 7, (s) => s.rssMb.toFixed(1)],
  ['heap MB', 7, (s) => s.heapMb.toFixed(1)],
  ['ext MB', 6, (s) => s.extMb.toFixed(1)],
  ['timers', 6, (s) => String(s.timers)],
  ['live t/i', 8, (s) => `${s.liveTimeouts}/${s.liveIntervals}`],
  ['lsnr', 4, (s) => String(s.listeners)],
  ['handles', 7, (s) => String(s.handles)],
  ['fds', 4, (s) => String(s.fds)],
  ['thr', 3, (s) => String(s.threads)],
  ['kids', 4, (s) => String(s.children)],
  ['frames', 6, (s) => String(s.frames)],
  ['frame ms', 8, (s) => s.frameMean.toFixed(2)],
  ['max ms', 7, (s) => s.frameMax.toFixed(1)],
  ['loop ms', 7, (s) => s.loopMaxMs.toFixed(0)],
  ['sess KB', 7, (s) => s.sessionKb.toFixed(0)],
  ['compact', 7, (s) => `${s.compacts}/${s.autoCompacts}a`],
  ['cron', 6, (s) => `${s.cronFired}/${s.cronTurns}t`],
];

/** The table's header (two lines, markdown). */
export function soakHeader(): string {
  const head = `| ${COLUMNS.map(([h, w]) => h.padStart(w)).join(' | ')} |`;
  const rule = `|${COLUMNS.map(([, w]) => '-'.repeat(w + 1) + ':').join('|')}|`;
  return `${head}\n${rule}`;
}

export function soakRow(s: SoakSample): string {
  return `| ${COLUMNS.map(([, w, f]) => f(s).padStart(w)).join(' | ')} |`;
}

/** The whole table for a list of samples. */
export function soakTable(samples: readonly SoakSample[]): string {
  return [soakHeader(), ...samples.map(soakRow)].join('\n');
}

/** The summary lines printed after the table. */
export function soakSummary(run: SoakRun): string[] {
  const f = (v: number, d = 2): string => (Number.isFinite(v) ? v.toFixed(d) : 'n/a');
  return [
    `${run.turns} turns in ${f(run.wallSeconds, 0)} s (${f(run.msPerTurn, 0)} ms/turn) at clock speed ${f(run.clockSpeed, 1)}: ${f(run.simulatedHours)} simulated hours; cron fired ${run.cronFired} times (notice seen on screen for ${run.cronShown}; ${run.cronTurns} ran as their own turn, the others joined a busy turn's request); ${run.compactions} compactions (${run.autoCompactions} automatic); ${run.toolErrors} failed tool calls`,
    `RSS last / turn 100: ${f(run.rssRatio)}x (${f(run.rssMbLast, 1)} / ${f(run.rssMb100, 1)} MB; goal <= 1.2x); heap ${f(run.heapMbLast, 1)} / ${f(run.heapMb100, 1)} MB`,
    `frame cost last window / window at turn 100: ${f(run.frameCostRatio)}x (${f(run.frameMsLast, 3)} / ${f(run.frameMs100, 3)} ms mean; slowest ${f(run.frameMsMaxLast, 1)} / ${f(run.frameMsMax100, 1)} ms)`,
    `timers turn 100 -> last: ref'ed (probe's Timeout) ${run.timers100} -> ${run.timersLast}, live timeouts ${run.liveTimeouts100} -> ${run.liveTimeoutsLast}, live intervals ${run.liveIntervals100} -> ${run.liveIntervalsLast}; listeners on process/stdin/stdout ${run.listeners100} -> ${run.listenersLast}; handles ${run.handles100} -> ${run.handlesLast}; fds ${run.fds100} -> ${run.fdsLast}; session file ${f(run.sessionKbLast, 0)} KB`,
  ];
}

/**
 * A private copy of the bundle for the run: another engineer's `npm run bundle` deletes
 * dist/bundle, and a 20-minute run loads lazy chunks (slash commands, dialogs) long after its start.
 * The copy stays under dist/ so `node_modules` and the package root still resolve from it.
 */
function copyBundle(main = CAIRN_MAIN): { main: string; dispose(): void } {
  const from = path.dirname(main);
  const to = path.join(path.dirname(from), `soak-bundle-${process.pid}`);
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
  return { main: path.join(to, path.basename(main)), dispose: () => rmSync(to, { recursive: true, force: true }) };
}

function idle(screen: string): boolean {
  return screen.includes(PROMPT_VISIBLE) && !screen.includes(BUSY);
}

/** Waits until `done()` holds (polling the session file) and the prompt box is idle again. */
async function waitTurn(app: PtyApp, tail: SessionTail, done: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const start = performance.now();
  for (;;) {
    tail.poll();
    const screen = app.screen();
    if (tail.cronFired > tail.cronShown && screen.includes(CRON_NOTICE)) tail.cronShown = tail.cronFired;
    if (screen.includes(APPROVAL)) throw new Error(`${what}: the app asks for approval, the soak would stall; the screen was:\n${screen}`);
    if (done() && idle(screen)) return;
    if (performance.now() - start > timeoutMs) throw new Error(`${what}: not done after ${timeoutMs} ms; the screen was:\n${screen}`);
    await sleep(15);
  }
}

/** What /compact says when a turn runs (components/commands/session-commands.ts). */
const COMPACT_REFUSED = 'A turn is running; compact after it ends';

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** Types one prompt, presses Enter and waits until its turn (or /compact) has ended and the app is idle. */
async function runTurn(app: PtyApp, tail: SessionTail, prompt: string): Promise<void> {
  // A cron firing can start a turn between the idle check and Enter: a prompt then queues and
  // runs after it, but /compact is refused, and is typed again.
  for (let attempt = 1; ; attempt++) {
    await app.waitForScreen(idle, `the idle prompt box before "${prompt}"`, 90_000);
    tail.poll();
    const from = tail.events.length;
    app.write(prompt);
    await app.waitForScreen((s) => s.includes(prompt), `the typed "${prompt}"`, 10_000);
    const refused = occurrences(app.screen(), COMPACT_REFUSED);
    app.write('\r');
    if (prompt !== '/compact') return waitPromptTurn(app, tail, prompt, from);
    let again = false;
    await waitTurn(
      app,
      tail,
      () => {
        again = occurrences(app.screen(), COMPACT_REFUSED) > refused;
        return again || tail.events.slice(from).some((e) => e.type === 'compact' && e.trigger === 'manual');
      },
      prompt,
    );
    if (!again) return;
    if (attempt >= 5) throw new Error(`/compact was refused ${attempt} times: a turn was always running`);
  }
}

async function waitPromptTurn(app: PtyApp, tail: SessionTail, prompt: string, from: number): Promise<void> {
  await waitTurn(
    app,
    tail,
    () => {
      const at = tail.events.findIndex((e, i) => i >= from && e.type === 'user_prompt' && e.text === prompt);
      return at >= 0 && tail.events.slice(at + 1).some((e) => e.type === 'terminal');
    },
    `turn "${prompt}"`,
  );
}

/** Stays idle until the cron job fires and its prompt has run as a turn of its own. */
async function waitCronTurn(app: PtyApp, tail: SessionTail, clockSpeed: number): Promise<void> {
  tail.poll();
  const from = tail.events.length;
  // Every 5 simulated minutes, pushed up to 4 more at :00 and :30 (src/cron/timing.ts).
  const timeoutMs = ((9 * 60) / clockSpeed) * 1000 + 30_000;
  await waitTurn(
    app,
    tail,
    () => {
      const at = tail.events.findIndex((e, i) => i > from && e.type === 'user_prompt' && e.text === CRON_PROMPT && tail.events[i - 1]?.type === 'cron');
      return at >= 0 && tail.events.slice(at + 1).some((e) => e.type === 'terminal');
    },
    'a cron firing while idle',
    timeoutMs,
  );
}

export async function measureSoak(turns = 2000, options: SoakOptions = {}): Promise<SoakRun> {
  const every = options.every ?? 100;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const clockSpeed = options.clockSpeed ?? DEFAULT_CLOCK_SPEED;
  const sandbox: Sandbox = createSandbox();
  for (let k = 0; k < 5; k++) writeFileSync(path.join(sandbox.workspace, `s${k}.txt`), `soak file ${k} alpha\n`);
  writeFileSync(path.join(sandbox.workspace, 'cron.txt'), 'the cron job reads this\n');
  const statsFile = path.join(sandbox.home, 'bench-stats.jsonl');
  const timersFile = path.join(sandbox.home, 'soak-timers.jsonl');
  const preload = path.join(sandbox.home, 'soak-timers.mjs');
  writeFileSync(preload, TIMERS_PRELOAD);
  const bundle = copyBundle(options.main);
  const gc = options.gcBeforeSample ?? true;
  const nodeArgs: string[] = ['--import', pathToFileURL(preload).href, ...(gc ? ['--expose-gc'] : []), ...(options.nodeArgs ?? [])];
  if (options.snapshotDir) {
    mkdirSync(options.snapshotDir, { recursive: true });
    nodeArgs.push('--heapsnapshot-signal=SIGUSR1', `--diagnostic-dir=${options.snapshotDir}`);
  }
  const app = new PtyApp({
    file: process.execPath,
    args: [...nodeArgs, bundle.main, '--permission-mode', 'acceptEdits', '--allowed-tools', ...ALLOWED],
    cwd: sandbox.workspace,
    env: benchEnv(sandbox, true, {
      CAIRN_BENCH_STATS: statsFile,
      CAIRN_CLOCK_SPEED: String(clockSpeed),
      CAIRN_COMPACT_THRESHOLD: String(COMPACT_THRESHOLD),
      SOAK_TIMERS_FILE: timersFile,
      ...(gc ? { SOAK_GC: '1' } : {}),
      ...(options.timerSites ? { SOAK_TIMER_SITES: '1' } : {}),
    }),
  });
  const tail = new SessionTail(sandbox.home);
  const samples: SoakSample[] = [];
  let snapshots = 0;
  const snapshot = async (): Promise<void> => {
    if (!options.snapshotDir) return;
    const dir = options.snapshotDir;
    const count = (): number => readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')).length;
    const before = count();
    process.kill(app.pid, 'SIGUSR1');
    // The snapshot is written synchronously inside the app: wait until it answers again.
    for (let waited = 0; count() === before && waited < 120_000; waited += 200) await sleep(200);
    snapshots++;
  };
  let window: number[] = [];
  const slowest: { ms: number; turn: number; prompt: string }[] = [];
  const take = async (turn: number, t0: number): Promise<SoakSample> => {
    await app.waitQuiet(100, 30_000).catch(() => undefined);
    const { app: p, timers } = await probe(app, statsFile, timersFile);
    tail.poll();
    const kinds = fdKinds(app.pid);
    const wallS = (performance.now() - t0) / 1000;
    const s: SoakSample = {
      turn,
      wallS,
      simMin: ((performance.now() - app.startedAt) / 1000) * clockSpeed / 60,
      turnMs: window.length ? window.reduce((a, b) => a + b, 0) / window.length : NaN,
      turnMsMax: window.length ? Math.max(...window) : NaN,
      rssMb: p.rssMb,
      heapMb: p.heapUsedMb,
      extMb: p.externalMb,
      timers: p.resources['Timeout'] ?? 0,
      liveTimeouts: timers.timeouts,
      liveIntervals: timers.intervals,
      listeners: timers.processListeners + timers.stdinListeners + timers.stdoutListeners,
      ...(timers.sites ? { timerSites: timers.sites } : {}),
      handles: sum(p.resources),
      resources: p.resources,
      fds: sum(kinds),
      fdKinds: kinds,
      ...threadsAndChildren(app.pid),
      frames: p.frames,
      frameMean: p.frames > 0 ? p.frameMsTotal / p.frames : NaN,
      frameMax: p.frameMsMax,
      loopMaxMs: p.loopDelayMaxMs,
      sessionKb: tail.sizeKb(),
      compacts: tail.compacts,
      autoCompacts: tail.autoCompacts,
      cronFired: tail.cronFired,
      cronTurns: tail.cronTurns,
    };
    window = [];
    samples.push(s);
    log(soakRow(s));
    options.onSample?.(s);
    return s;
  };

  try {
    await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box', 30_000);
    await app.waitQuiet(300);
    // Setup (not counted): the cron job, approved by the allow rule.
    await runTurn(app, tail, `schedule "${CRON}" ${CRON_PROMPT}`);
    if (!tail.events.some((e) => e.type === 'cron' && e.status === 'created')) throw new Error('the cron job was not created');
    log(`soak: ${turns} turns, clock speed ${clockSpeed.toFixed(2)}, ${gc ? 'a full GC before each sample' : 'no GC before the samples'}, CAIRN_COMPACT_THRESHOLD=${COMPACT_THRESHOLD}, cron "${CRON}" ${CRON_PROMPT}`);
    log(soakHeader());
    const t0 = performance.now();
    await take(0, t0);
    for (let n = 1; n <= turns; n++) {
      const prompt = soakPrompt(n);
      const started = performance.now();
      await runTurn(app, tail, prompt);
      const ms = performance.now() - started;
      window.push(ms);
      slowest.push({ ms, turn: n, prompt });
      slowest.sort((a, b) => b.ms - a.ms).splice(5);
      // Once every 100 turns the app idles until the cron job fires, so a firing also starts a turn of
      // its own (back-to-back turns keep the session busy: firings otherwise join the next request).
      if (n % 100 === 75) await waitCronTurn(app, tail, clockSpeed);
      if (n % every === 0 || n === turns) {
        await take(n, t0);
      }
    }
    await snapshot();
    const wallSeconds = (performance.now() - t0) / 1000;
    const base = samples.find((s) => s.turn >= every) ?? samples[samples.length - 1];
    const last = samples[samples.length - 1];
    if (!base || !last) throw new Error('no samples');
    if (snapshots > 0) log(`heap snapshot after turn ${turns} in ${options.snapshotDir}`);
    const diff = (a: Record<string, number>, b: Record<string, number>): string =>
      [...new Set([...Object.keys(a), ...Object.keys(b)])]
        .filter((k) => (a[k] ?? 0) !== (b[k] ?? 0))
        .map((k) => `${k} ${a[k] ?? 0}->${b[k] ?? 0}`)
        .join(', ') || 'none';
    log(`slowest turns: ${slowest.map((t) => `#${t.turn} "${t.prompt}" ${t.ms.toFixed(0)} ms`).join('; ')}`);
    if (tail.toolErrors > 0) log(`failed tool calls (${tail.toolErrors}), the first: ${tail.toolErrorTexts.join(' | ')}`);
    log(`resources changed turn ${base.turn} -> ${last.turn}: ${diff(base.resources, last.resources)}`);
    if (last.timerSites) log(`live timers by site at turn ${last.turn}: ${JSON.stringify(last.timerSites, null, 1)}`);
    log(`fd kinds changed turn ${base.turn} -> ${last.turn}: ${diff(base.fdKinds, last.fdKinds)}`);
    const run: SoakRun = {
      turns,
      wallSeconds,
      msPerTurn: (wallSeconds * 1000) / turns,
      clockSpeed,
      simulatedHours: last.simMin / 60,
      cronFired: tail.cronFired,
      cronShown: tail.cronShown,
      cronTurns: tail.cronTurns,
      compactions: tail.compacts,
      autoCompactions: tail.autoCompacts,
      toolErrors: tail.toolErrors,
      rssMb100: base.rssMb,
      rssMbLast: last.rssMb,
      rssRatio: last.rssMb / base.rssMb,
      heapMb100: base.heapMb,
      heapMbLast: last.heapMb,
      frameMs100: base.frameMean,
      frameMsLast: last.frameMean,
      frameCostRatio: last.frameMean / base.frameMean,
      frameMsMax100: base.frameMax,
      frameMsMaxLast: last.frameMax,
      timers100: base.timers,
      timersLast: last.timers,
      liveTimeouts100: base.liveTimeouts,
      liveTimeoutsLast: last.liveTimeouts,
      liveIntervals100: base.liveIntervals,
      liveIntervalsLast: last.liveIntervals,
      listeners100: base.listeners,
      listenersLast: last.listeners,
      handles100: base.handles,
      handlesLast: last.handles,
      fds100: base.fds,
      fdsLast: last.fds,
      sessionKbLast: last.sessionKb,
    };
    for (const line of soakSummary(run)) log(line);
    return run;
  } finally {
    await app.stop();
    sandbox.dispose();
    bundle.dispose();
  }
}

// `node dist/test/bench/tui/measure-soak.js [turns] [--speed=N] [--snapshots=DIR] [--timer-sites] [--cpu-prof=DIR] [--no-gc]`
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const arg = (name: string): string | undefined => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const turns = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 2000);
  const speed = arg('speed');
  const snapshotDir = arg('snapshots');
  const run = await measureSoak(turns, {
    ...(speed ? { clockSpeed: Number(speed) } : {}),
    ...(snapshotDir ? { snapshotDir: path.resolve(snapshotDir) } : {}),
    ...(process.argv.includes('--timer-sites') ? { timerSites: true } : {}),
    ...(process.argv.includes('--no-gc') ? { gcBeforeSample: false } : {}),
    ...(arg('main') ? { main: path.resolve(arg('main') ?? '') } : {}),
    ...(arg('cpu-prof') ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${path.resolve(arg('cpu-prof') ?? '.')}`] } : {}),
  });
  console.log(JSON.stringify(run));
}
