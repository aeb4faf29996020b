import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { APPROVAL_GUARD_MS, TYPING_IDLE_MS } from '../../components/keys/approval-guard.js';
import { waitFor } from './wait-for.js';

/** A real terminal: a tmux server of its own, one window of a given size, driven by keys. */
export class TmuxTerminal {
  private readonly socket = `cairn-test-${randomUUID().slice(0, 8)}`;

  private constructor() {}

  /**
   * Whether tmux runs here. Suites skip without it on a developer's machine; under CI (the `CI`
   * variable set) a missing tmux is an error instead, so the real-terminal suites cannot pass by
   * not running.
   */
  static available(env: NodeJS.ProcessEnv = process.env): boolean {
    try {
      execFileSync('tmux', ['-V'], { stdio: 'ignore', env });
      return true;
    } catch {
      if (env['CI']) throw new Error('tmux is not installed: under CI the real-terminal tests must run, not skip. Install tmux.');
      return false;
    }
  }

  /** Starts an interactive shell (so leaving the app lands on a real prompt). */
  static start(opts: { cwd: string; env: Record<string, string>; columns?: number; rows?: number }): TmuxTerminal {
    const t = new TmuxTerminal();
    const env = Object.entries({ ...opts.env, PS1: 'shell$ ', TERM: 'xterm-256color' }).map(([k, v]) => `${k}=${shellQuote(v)}`).join(' ');
    // `env -u CI`: Ink writes nothing until exit when CI is set, and CI sets it.
    t.tmux('new-session', '-d', '-x', String(opts.columns ?? 120), '-y', String(opts.rows ?? 40), '-c', opts.cwd, `env -u CI ${env} bash --norc --noprofile`);
    return t;
  }

  tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  type(text: string): void {
    this.tmux('send-keys', '-l', text);
  }

  keys(...keys: string[]): void {
    this.tmux('send-keys', ...keys);
  }

  screen(): string {
    return this.tmux('capture-pane', '-p');
  }

  /** The screen with its SGR styles (inverse is `ESC[7m`). */
  styledScreen(): string {
    return this.tmux('capture-pane', '-p', '-e');
  }

  alternateOn(): boolean {
    return this.tmux('display', '-p', '#{alternate_on}').trim() === '1';
  }

  resize(columns: number, rows: number): void {
    this.tmux('resize-window', '-x', String(columns), '-y', String(rows));
  }

  async waitForScreen(predicate: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
    let last = '';
    try {
      await waitFor(() => predicate((last = this.screen())), { timeout: timeoutMs, interval: 50 });
    } catch {
      throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
    }
    return last;
  }

  async waitForText(text: string, timeoutMs?: number): Promise<string> {
    return this.waitForScreen((s) => s.includes(text), JSON.stringify(text), timeoutMs);
  }

  /** The screen once it has stopped changing (the last frame of a turn can land after its text). */
  async waitForStable(quietMs = 300, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = this.screen();
    for (;;) {
      await new Promise((r) => setTimeout(r, quietMs));
      const now = this.screen();
      if (now === last) return now;
      if (Date.now() > deadline) throw new Error(`the screen kept changing; last:\n${now}`);
      last = now;
    }
  }

  /**
   * Waits as a person does before answering an approval: past the guard that keeps type-ahead out
   * of it and the pause that ends typing. This is the behaviour under test, not a wait for output.
   */
  async pauseBeforeAnswering(): Promise<void> {
    await new Promise((r) => setTimeout(r, APPROVAL_GUARD_MS + TYPING_IDLE_MS + 100));
  }

  kill(): void {
    try {
      this.tmux('kill-server');
    } catch {
      // already gone
    }
  }
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
