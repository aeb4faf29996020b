import { spawn } from 'node:child_process';
import { costSummary } from '../../src/pricing.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { TuiStore } from '../store/create-store.js';
import type { TuiState } from '../store/types.js';

/** Runs at most this often, as Claude Code debounces it. */
export const STATUS_LINE_MIN_MS = 300;
const TIMEOUT_MS = 5000;

export interface StatusLineText {
  get(): string | undefined;
  subscribe(listener: () => void): () => void;
}

// The line per app (its store), for the status row to read.
const lines = new WeakMap<TuiStore, StatusLineText>();
export function statusLineFor(store: TuiStore): StatusLineText | undefined {
  return lines.get(store);
}

/** The session JSON the command reads on stdin (Claude Code's fields that cairn has). */
export function statusLineInput(state: TuiState, extra: { sessionId?: string }): Record<string, unknown> {
  const { usage, info } = state;
  const used = state.contextLimit > 0 ? Math.round((usage.context / state.contextLimit) * 100) : 0;
  return {
    hook_event_name: 'Status',
    ...(extra.sessionId ? { session_id: extra.sessionId } : {}),
    cwd: info.cwd,
    model: { id: info.model, display_name: info.model },
    workspace: { current_dir: info.cwd, project_dir: info.cwd, added_dirs: [] },
    permission_mode: info.mode,
    cost: { total_cost_usd: costSummary(usage.byModel, state.pricing).total },
    context_window: {
      total_input_tokens: usage.input + usage.cacheRead + usage.cacheWrite,
      total_output_tokens: usage.output,
      context_window_size: state.contextLimit,
      used_percentage: used,
      remaining_percentage: 100 - used,
    },
  };
}

/** Events after which the line may have changed (Claude Code: new message, mode change, compaction). */
export function refreshesStatusLine(type: string): boolean {
  return type === 'assistant' || type === 'terminal' || type === 'mode_change' || type === 'session_start' || type === 'compact' || type === 'usage';
}

export interface StatusLineOptions {
  store: TuiStore;
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  input(): Record<string, unknown>;
  /** A failure, said once per distinct message (the log). */
  onProblem(message: string): void;
}

/**
 * Runs the user's statusLine command with the session JSON on stdin and shows the first line it
 * prints in place of the built-in status row. `refresh()` may be called on every event: runs are
 * at least STATUS_LINE_MIN_MS apart (the last request is kept) and a new run cancels one in flight.
 */
export function startStatusLine(options: StatusLineOptions): { refresh(): void; dispose(): void } {
  let text: string | undefined;
  const listeners = new Set<() => void>();
  lines.set(options.store, { get: () => text, subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) });
  let lastRun = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: AbortController | undefined;
  let disposed = false;

  const run = (): void => {
    timer = undefined;
    lastRun = Date.now();
    running?.abort();
    const controller = new AbortController();
    running = controller;
    const child = spawn('/bin/sh', ['-c', options.command], { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'ignore'], signal: controller.signal });
    const killer = setTimeout(() => controller.abort(), TIMEOUT_MS);
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('error', (error) => {
      clearTimeout(killer);
      if (!controller.signal.aborted) options.onProblem(`statusLine command: ${errorMessage(error)}`);
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      if (controller.signal.aborted || disposed) return;
      if (code !== 0) options.onProblem(`statusLine command exited with ${String(code)}`);
      const first = stripTerminalControls(out.split('\n')[0] ?? '').trimEnd();
      text = first === '' ? undefined : first;
      for (const l of listeners) l();
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(options.input()));
  };

  return {
    refresh() {
      if (disposed || timer) return;
      const wait = Math.max(0, lastRun + STATUS_LINE_MIN_MS - Date.now());
      timer = setTimeout(run, wait);
    },
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
      running?.abort();
      lines.delete(options.store);
    },
  };
}
