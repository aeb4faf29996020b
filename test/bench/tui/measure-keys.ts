// Keypress to screen: type into the prompt one character at a time and time each until the
// xterm screen shows it. Used during a paced stream and in sessions of different lengths.
import type { PtyApp } from './pty-app.js';
import { sleep } from './pty-app.js';
import { createSandbox, PROMPT_VISIBLE, startCairn } from './cairn-pty.js';
import { percentile } from './stats.js';
import { startServerFor, type BenchProvider } from './provider-server.js';

// Letters the offline model's words never contain, so the typed text is found only in the prompt.
const ALPHABET = 'zxjzjxqzjx';
const LINE_MAX = 24;

export interface KeySamples {
  latenciesMs: number[];
  bytesPerKey: number[];
}

/** Types `count` keys (clearing the prompt with Ctrl+U every LINE_MAX keys) while `keepGoing()` holds. */
export async function typeAndTime(app: PtyApp, count: number, keepGoing: () => boolean = () => true): Promise<KeySamples> {
  const latenciesMs: number[] = [];
  const bytesPerKey: number[] = [];
  let typed = '';
  for (let i = 0; i < count && keepGoing(); i++) {
    const ch = ALPHABET[i % ALPHABET.length]!;
    typed += ch;
    const want = typed;
    const b0 = app.bytes;
    const t0 = performance.now();
    app.write(ch);
    const at = await app.waitForScreen((s) => s.includes(want), `typed text "${want}"`, 10_000);
    latenciesMs.push(at - t0);
    bytesPerKey.push(app.bytes - b0);
    if (typed.length >= LINE_MAX) {
      app.write('\x15'); // Ctrl+U
      await app.waitForScreen((s) => !s.includes(want), 'the prompt to clear', 10_000);
      typed = '';
    }
    await sleep(30 + ((i * 37) % 50)); // irregular gaps, like a person typing fast
  }
  app.write('\x15');
  return { latenciesMs, bytesPerKey };
}

export interface StreamKeysRun extends Record<string, number> {
  p50Ms: number;
  p95Ms: number;
  samples: number;
}

/** Keypress latency while a paced answer streams, from the offline model (default) or a real provider against a loopback server. */
export async function measureKeysDuringStream(prompt: string, frameWriter: boolean, count = 80, provider: BenchProvider = 'offline'): Promise<StreamKeysRun> {
  const server = await startServerFor(provider);
  const sandbox = createSandbox();
  const app = server ? startCairn(sandbox, server.args, frameWriter, server.env) : startCairn(sandbox, [], frameWriter);
  try {
    await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
    await app.waitQuiet(300);
    app.write(`${prompt}\r`);
    await app.waitForScreen((s) => /responding \d/.test(s), 'the answer to stream', 10_000);
    // Checked before each key rather than with a waiter: a waiter left pending when the typing ends
    // first (the usual case) kept a timer alive that held the bench process open for minutes.
    const streaming = (): boolean => {
      const s = app.screen();
      return /responding \d/.test(s) || !s.includes('ctx');
    };
    const { latenciesMs } = await typeAndTime(app, count, streaming);
    if (latenciesMs.length < 20) throw new Error(`only ${latenciesMs.length} keypresses fitted in the stream; make it longer`);
    return { p50Ms: percentile(latenciesMs, 50), p95Ms: percentile(latenciesMs, 95), samples: latenciesMs.length };
  } finally {
    await app.stop();
    sandbox.dispose();
    await server?.close();
  }
}
