// Starting the built cairn in a pseudo-terminal with a temp CAIRN_HOME and workspace, on the offline model.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PtyApp } from './pty-app.js';

/**
 * dist/test/bench/tui/ -> dist/bundle/main.js: what npm start and the cairn bin run. CAIRN_BENCH_MAIN
 * names another build's main.js, to measure two builds side by side in one run.
 */
export const CAIRN_MAIN = process.env['CAIRN_BENCH_MAIN'] ?? fileURLToPath(new URL('../../../bundle/main.js', import.meta.url));

/** The node flags on the bin's `#!/usr/bin/env -S node ...` line: the benches start cairn as the bin does. */
export const CAIRN_NODE_ARGS: readonly string[] = (() => {
  const first = readFileSync(CAIRN_MAIN, 'utf8').split('\n', 1)[0] ?? '';
  const m = /^#!\S*env\s+(?:-S\s+)?node\b(.*)$/.exec(first);
  return m?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
})();

export const PROMPT_VISIBLE = 'Ask cairn';

export interface Sandbox {
  home: string;
  workspace: string;
  dispose(): void;
}

export function createSandbox(): Sandbox {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'cairn-bench-')));
  const home = path.join(root, 'home');
  const workspace = path.join(root, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
  return {
    home,
    workspace,
    // The program may still be writing its log as it exits (tmux's kill-server hangs it up): retry.
    dispose: () => rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }),
  };
}

/** The child's environment: CI unset (Ink writes nothing until exit when it is set), no provider keys. */
export function benchEnv(sandbox: Sandbox, frameWriter: boolean, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k === 'CI' || /_API_KEY$|^CAIRN_/.test(k)) continue;
    env[k] = v;
  }
  return {
    ...env,
    TERM: 'xterm-256color',
    CAIRN_HOME: sandbox.home,
    ...(frameWriter ? {} : { CAIRN_FRAME_WRITER: '0' }),
    ...extra,
  };
}

export function startCairn(sandbox: Sandbox, args: string[], frameWriter: boolean, extra: Record<string, string> = {}): PtyApp {
  return new PtyApp({ file: process.execPath, args: [...CAIRN_NODE_ARGS, CAIRN_MAIN, ...args], cwd: sandbox.workspace, env: benchEnv(sandbox, frameWriter, extra) });
}
