// `cairn serve` figures for BENCHMARKS.md: start to first byte, events per second to 1 and 10
// subscribers, memory per idle session. Real server on loopback, real runtimes on the offline model.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { tempWorkspace } from '../helpers/run-cairn.js';
import { openSseClient, startServeRig } from '../helpers/serve-rig.js';
import { waitFor } from '../helpers/wait-for.js';

/** dist/test/bench/ -> dist/bundle/main.js: what the cairn bin runs. */
const CAIRN_MAIN = fileURLToPath(new URL('../../bundle/main.js', import.meta.url));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The built `cairn serve` from spawn to the first byte of its page (median of `runs`). */
async function startToFirstByte(runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { dir, home } = await tempWorkspace();
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const started = performance.now();
    const child = spawn(process.execPath, [CAIRN_MAIN, 'serve', '--port', String(port)], { cwd: dir, env: { ...process.env, CAIRN_HOME: home }, stdio: 'ignore' });
    const ms = await waitFor(
      () =>
        new Promise<number>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
            res.once('data', () => resolve(performance.now() - started));
            res.resume();
          });
          req.on('error', reject);
        }),
      { interval: 2, timeout: 10_000, message: 'serve listening' },
    );
    times.push(ms);
    child.kill('SIGTERM');
  }
  return median(times);
}

/** Events per second reaching every one of `subscribers` pages while a 20,000-word answer streams. */
async function eventsPerSecond(subscribers: number): Promise<number> {
  const r = await startServeRig();
  try {
    const id = await r.newSession();
    const streams = Array.from({ length: subscribers }, () => openSseClient(`${r.base}/api/sessions/${id}/events`, {}));
    await waitFor(() => streams.every((s) => s.messages.length > 0), { message: 'subscribed' });
    const started = performance.now();
    await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'stream 20000' } });
    await waitFor(() => streams.every((s) => s.messages.some((m) => m.event === 'agent' && m.data['type'] === 'terminal')), { timeout: 60_000, interval: 5, message: 'all received' });
    const seconds = (performance.now() - started) / 1000;
    const events = Math.min(...streams.map((s) => s.messages.filter((m) => m.event === 'agent').length));
    for (const s of streams) s.close();
    return events / seconds;
  } finally {
    await r.close();
  }
}

/** Heap + external growth per idle session, over 20 sessions (after GC when exposed). */
async function memoryPerSession(): Promise<number> {
  const r = await startServeRig();
  const gc = (globalThis as { gc?: () => void }).gc;
  try {
    gc?.();
    const before = process.memoryUsage();
    for (let i = 0; i < 20; i++) await r.newSession();
    gc?.();
    const after = process.memoryUsage();
    return (after.heapUsed + after.external - before.heapUsed - before.external) / 20;
  } finally {
    await r.close();
  }
}

export async function benchServe(): Promise<{ firstByteMs: number; eventsPerSec1: number; eventsPerSec10: number; bytesPerSession: number }> {
  return {
    firstByteMs: await startToFirstByte(5),
    eventsPerSec1: await eventsPerSecond(1),
    eventsPerSec10: await eventsPerSecond(10),
    bytesPerSession: await memoryPerSession(),
  };
}
