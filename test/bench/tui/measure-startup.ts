// Start-up: `node -e 0`, `cairn --version`, a bare node program that prints a prompt, cairn's
// first interactive frame, and the offline model answering headless.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { benchEnv, CAIRN_MAIN, CAIRN_NODE_ARGS, createSandbox, PROMPT_VISIBLE, startCairn } from './cairn-pty.js';
import { PtyApp } from './pty-app.js';

function wallMs(args: string[], cwd: string, env: Record<string, string>): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return ms;
}

export interface ProcessTimes extends Record<string, number> {
  nodeMs: number;
  versionMs: number;
  headlessMs: number;
}

/** Wall times of short processes, run back to back so they share the machine's state. */
export function measureProcessTimes(headlessPrompt: string): ProcessTimes {
  const sandbox = createSandbox();
  try {
    const env = benchEnv(sandbox, true);
    return {
      nodeMs: wallMs(['-e', '0'], sandbox.workspace, env),
      versionMs: wallMs([...CAIRN_NODE_ARGS, CAIRN_MAIN, '--version'], sandbox.workspace, env),
      headlessMs: wallMs([...CAIRN_NODE_ARGS, CAIRN_MAIN, '-p', headlessPrompt, '--output-format', 'stream-json'], sandbox.workspace, env),
    };
  } finally {
    sandbox.dispose();
  }
}

// What a minimal full-screen prompt costs: node starting and writing one frame.
const BARE_PROMPT = `process.stdout.write('\\x1b[?1049h\\x1b[2J\\x1b[H╭────╮\\n│ > Ask cairn\\n╰────╯');
process.stdin.setRawMode?.(true);
process.stdin.resume();
process.stdin.on('data', () => process.exit(0));
`;

export interface FrameTimes extends Record<string, number> {
  bareMs: number;
  firstFrameMs: number;
  /** Spawn to a key typed the moment the first frame showed being on screen in the prompt. */
  firstKeyMs: number;
}

/** Spawn to "Ask cairn" on the xterm screen, for the bare program and for cairn. */
export async function measureFirstFrame(frameWriter: boolean): Promise<FrameTimes> {
  const sandbox = createSandbox();
  try {
    const bareFile = path.join(sandbox.workspace, 'bare-prompt.cjs');
    writeFileSync(bareFile, BARE_PROMPT);
    const bare = new PtyApp({ file: process.execPath, args: [bareFile], cwd: sandbox.workspace, env: benchEnv(sandbox, frameWriter) });
    const bareAt = await bare.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the bare prompt');
    await bare.stop();
    const app = startCairn(sandbox, [], frameWriter);
    try {
      const at = await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
      // Typed at once: the frame may be drawn before the app reads keys (they wait, never lost).
      app.write('zq');
      const keyAt = await app.waitForScreen((s) => s.includes('> zq'), 'the first key in the prompt');
      return { bareMs: bareAt - bare.startedAt, firstFrameMs: at - app.startedAt, firstKeyMs: keyAt - app.startedAt };
    } finally {
      await app.stop();
    }
  } finally {
    sandbox.dispose();
  }
}
