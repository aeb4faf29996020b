// The same measurements with tmux as the terminal (issue 39 item 3): a 120x40 pane, everything the
// program writes recorded with pipe-pane, the program's CPU and memory read from /proc. Two things:
// a paced answer streamed through the Anthropic provider (cairn against a program that only prints
// each delta: the floor), and spawn-to-first-frame (cairn against a bare node prompt).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchEnv, CAIRN_MAIN, CAIRN_NODE_ARGS, createSandbox, PROMPT_VISIBLE, type Sandbox } from './cairn-pty.js';
import { procStats } from './proc-stats.js';
import { startProviderServer } from './provider-server.js';
import { sleep } from './pty-app.js';

const WIDTH = 120;
const HEIGHT = 40;
const SDK = fileURLToPath(import.meta.resolve('@anthropic-ai/sdk'));

export function tmuxAvailable(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** One tmux server of its own (its own socket), one pane, the program held until `go()`. */
class TmuxPane {
  private readonly socket: string;
  private readonly gate: string;
  readonly log: string;
  startedAt = 0;

  constructor(
    sandbox: Sandbox,
    argv: string[],
    env: Record<string, string>,
  ) {
    this.socket = `cairn-bench-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    this.gate = path.join(sandbox.home, 'go');
    this.log = path.join(sandbox.home, 'pane.log');
    writeFileSync(this.log, '');
    const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    // The shell waits for the gate, then becomes the program (exec): the pane's pid is the program's.
    const script = `while [ ! -e '${this.gate}' ]; do sleep 0.005; done; exec ${quoted}`;
    // TERM is tmux's own (its default-terminal), as for a person running cairn in tmux.
    const envArgs = Object.entries(env)
      .filter(([k]) => k !== 'TERM')
      .flatMap(([k, v]) => ['-e', `${k}=${v}`]);
    this.tmux(['new-session', '-d', '-x', String(WIDTH), '-y', String(HEIGHT), ...envArgs, '-c', sandbox.workspace, 'sh', '-c', script]);
    this.tmux(['set-option', '-g', 'status', 'off']);
    this.tmux(['pipe-pane', '-o', `cat >> '${this.log}'`]);
  }

  tmux(args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: { ...process.env, TMUX: '' } });
  }

  go(): void {
    this.startedAt = performance.now();
    writeFileSync(this.gate, '');
  }

  pid(): number {
    return Number(this.tmux(['display-message', '-p', '#{pane_pid}']).trim());
  }

  bytes(): number {
    return statSync(this.log).size;
  }

  screen(): string {
    return this.tmux(['capture-pane', '-p']);
  }

  /** Waits for the recorded output to contain `text` (a cheap file read, no tmux round trip). */
  async waitForOutput(text: string, what: string, timeoutMs = 20_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if (readFileSync(this.log, 'latin1').includes(text)) return performance.now();
      await sleep(2);
    }
    throw new Error(`tmux bench: timed out waiting for ${what}`);
  }

  async waitForScreen(test: (screen: string) => boolean, what: string, timeoutMs = 20_000): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if (test(this.screen())) return performance.now();
      await sleep(20);
    }
    throw new Error(`tmux bench: timed out waiting for ${what}\n${this.screen()}`);
  }

  async waitQuiet(ms: number): Promise<void> {
    let last = this.bytes();
    let since = performance.now();
    for (;;) {
      await sleep(25);
      const now = this.bytes();
      if (now !== last) {
        last = now;
        since = performance.now();
      } else if (performance.now() - since >= ms) return;
    }
  }

  keys(...keys: string[]): void {
    this.tmux(['send-keys', ...keys]);
  }

  /** Asks the program to exit (so exit-time work such as --cpu-prof's file is done), then ends the server. */
  async quit(keys: string[][], timeoutMs = 10_000): Promise<void> {
    try {
      for (const k of keys) this.keys(...k);
      const deadline = performance.now() + timeoutMs;
      while (performance.now() < deadline) {
        this.tmux(['list-panes']);
        await sleep(50);
      }
    } catch {
      // the pane (and with it the server) is gone: the program exited
    }
    this.kill();
  }

  kill(): void {
    try {
      this.tmux(['kill-server']);
    } catch {
      // already gone
    }
  }
}

export interface TmuxStreamRun extends Record<string, number> {
  bytesPerChar: number;
  cpuPercent: number;
  cpuSeconds: number;
  peakRssMb: number;
  wallMs: number;
}

export interface TmuxStreamOptions {
  /** Fills the workspace before the program starts (e.g. a git repository). */
  prepare?: (workspace: string) => void;
  /** More environment for the program. */
  env?: Record<string, string>;
  /** More node flags (e.g. --cpu-prof). */
  nodeArgs?: string[];
}

// The floor: the SDK's stream, each text delta written to the terminal as it comes.
const PRINT_ONLY = (sdk: string): string => `import Anthropic from ${JSON.stringify(sdk)};
const client = new Anthropic();
process.stdin.setRawMode?.(true);
process.stdin.resume();
process.stdin.once('data', async () => {
  const stream = client.messages.stream({ model: 'claude-sonnet-5-5', max_tokens: 64000, messages: [{ role: 'user', content: process.argv[2] }] });
  stream.on('text', (t) => process.stdout.write(t));
  await stream.finalMessage();
  process.stdout.write('\\n[done]');
  process.stdin.once('data', () => process.exit(0));
});
`;

/**
 * A paced answer through the Anthropic provider, in tmux. `who` picks cairn or the print-only
 * floor; both read the same loopback server. CPU is the program's own (utime + stime) over the
 * stream's wall time.
 */
export async function measureTmuxStream(who: 'cairn' | 'floor', prompt: string, chars: number, tail: string, options: TmuxStreamOptions = {}): Promise<TmuxStreamRun> {
  const server = await startProviderServer('anthropic');
  const sandbox = createSandbox();
  options.prepare?.(sandbox.workspace);
  const env = benchEnv(sandbox, true, { ...server.env, ...options.env });
  let argv: string[];
  if (who === 'cairn') {
    argv = [process.execPath, ...CAIRN_NODE_ARGS, ...(options.nodeArgs ?? []), CAIRN_MAIN, ...server.args];
  } else {
    const file = path.join(sandbox.workspace, 'print-only.mjs');
    writeFileSync(file, PRINT_ONLY(SDK));
    argv = [process.execPath, ...(options.nodeArgs ?? []), file, prompt];
  }
  const pane = new TmuxPane(sandbox, argv, env);
  try {
    pane.go();
    if (who === 'cairn') {
      await pane.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
      await pane.waitQuiet(300);
      pane.keys('-l', prompt);
      await pane.waitForScreen((s) => s.includes(prompt), 'the typed prompt');
      await pane.waitQuiet(200);
    } else {
      await sleep(300);
    }
    const pid = pane.pid();
    const bytes0 = pane.bytes();
    const s0 = procStats(pid);
    const t0 = performance.now();
    pane.keys('Enter');
    const done =
      who === 'cairn'
        ? await pane.waitForScreen((s) => s.includes(PROMPT_VISIBLE) && s.includes(tail), 'the whole answer on screen', 180_000)
        : await pane.waitForOutput('[done]', 'the end of the answer', 180_000);
    const s1 = procStats(pid);
    await pane.waitQuiet(500);
    const wallMs = done - t0;
    if (options.nodeArgs?.length) await pane.quit(who === 'cairn' ? [['-l', '/exit'], ['Enter']] : [['q']]);
    return {
      bytesPerChar: (pane.bytes() - bytes0) / chars,
      cpuSeconds: s1.cpuSeconds - s0.cpuSeconds,
      cpuPercent: ((s1.cpuSeconds - s0.cpuSeconds) / (wallMs / 1000)) * 100,
      peakRssMb: s1.peakRssMb,
      wallMs,
    };
  } finally {
    pane.kill();
    sandbox.dispose();
    await server.close();
  }
}

const BARE_PROMPT = `process.stdout.write('\\x1b[?1049h\\x1b[2J\\x1b[H╭────╮\\n│ > ${PROMPT_VISIBLE}\\n╰────╯');
process.stdin.setRawMode?.(true);
process.stdin.resume();
`;

export interface TmuxFrameRun extends Record<string, number> {
  bareMs: number;
  firstFrameMs: number;
}

/** From the gate opening (the program exec'd) to "Ask cairn" in the pane's recorded output. */
export async function measureTmuxFirstFrame(): Promise<TmuxFrameRun> {
  const sandbox = createSandbox();
  try {
    const bareFile = path.join(sandbox.workspace, 'bare-prompt.cjs');
    writeFileSync(bareFile, BARE_PROMPT);
    const env = benchEnv(sandbox, true);
    const time = async (argv: string[]): Promise<number> => {
      const pane = new TmuxPane(sandbox, argv, env);
      try {
        pane.go();
        // cairn draws its cursor over the placeholder's first letter: the rest of it is the marker.
        const at = await pane.waitForOutput(PROMPT_VISIBLE.slice(1), 'the prompt');
        return at - pane.startedAt;
      } finally {
        pane.kill();
        const gate = path.join(sandbox.home, 'go');
        if (existsSync(gate)) execFileSync('rm', ['-f', gate]);
      }
    };
    const bareMs = await time([process.execPath, bareFile]);
    const firstFrameMs = await time([process.execPath, ...CAIRN_NODE_ARGS, CAIRN_MAIN]);
    return { bareMs, firstFrameMs };
  } finally {
    sandbox.dispose();
  }
}
