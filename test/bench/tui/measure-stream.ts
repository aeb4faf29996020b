// One streamed answer in a 120x40 pty: bytes per streamed character, CPU, peak RSS, time until
// the whole answer is on screen; then 5 s of idle with nothing moving.
import { createSandbox, PROMPT_VISIBLE, startCairn } from './cairn-pty.js';
import { startServerFor, type BenchProvider } from './provider-server.js';
import { sleep } from './pty-app.js';

export interface StreamRun extends Record<string, number> {
  bytesPerChar: number;
  cpuSeconds: number;
  /** CPU seconds / wall seconds of the stream, in percent of one core. */
  cpuPercent: number;
  peakRssMb: number;
  /** From Enter to the end of the answer on screen with the prompt back. */
  onScreenMs: number;
  idleBytes: number;
  idleCpuPercent: number;
}

export interface StreamSpec {
  prompt: string;
  /** Characters the model streams (the markdown's length). */
  chars: number;
  /** Text of the answer's last line, as it appears on screen. */
  tail: string;
  frameWriter: boolean;
  idleMs?: number;
  /** Who streams the answer: the offline model (default) or a real provider against a loopback server. */
  provider?: BenchProvider;
}

const BUSY = 'Type to queue a prompt';

export async function measureStream(spec: StreamSpec): Promise<StreamRun> {
  const server = await startServerFor(spec.provider);
  const sandbox = createSandbox();
  const app = server ? startCairn(sandbox, server.args, spec.frameWriter, server.env) : startCairn(sandbox, [], spec.frameWriter);
  try {
    await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
    await app.waitQuiet(300);
    app.write(spec.prompt);
    await app.waitForScreen((s) => s.includes(spec.prompt), 'the typed prompt');
    await app.waitQuiet(200);

    const bytes0 = app.bytes;
    const stats0 = app.stats();
    const t0 = performance.now();
    app.write('\r');
    await app.waitForScreen((s) => s.includes(BUSY), 'the turn to start', 10_000);
    const done = await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE) && s.includes(spec.tail), 'the whole answer on screen', 180_000);
    const stats1 = app.stats();
    // The frames that settle the screen after the answer (status bar, prompt) belong to the stream.
    await app.waitQuiet(500);
    const streamBytes = app.bytes - bytes0;

    const idleMs = spec.idleMs ?? 5000;
    await sleep(500);
    const idleBytes0 = app.bytes;
    const idleStats0 = app.stats();
    await sleep(idleMs);
    const idleStats1 = app.stats();
    return {
      bytesPerChar: streamBytes / spec.chars,
      cpuSeconds: stats1.cpuSeconds - stats0.cpuSeconds,
      cpuPercent: ((stats1.cpuSeconds - stats0.cpuSeconds) / ((done - t0) / 1000)) * 100,
      peakRssMb: stats1.peakRssMb,
      onScreenMs: done - t0,
      idleBytes: app.bytes - idleBytes0,
      idleCpuPercent: ((idleStats1.cpuSeconds - idleStats0.cpuSeconds) / (idleMs / 1000)) * 100,
    };
  } finally {
    await app.stop();
    sandbox.dispose();
    await server?.close();
  }
}

