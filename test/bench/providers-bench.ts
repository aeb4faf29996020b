import { performance } from 'node:perf_hooks';
import { createAnthropicProvider } from '../../src/providers/anthropic.js';
import { createOpenAIProvider } from '../../src/providers/openai.js';
import type { ModelProvider, ModelRequest } from '../../src/providers/provider.js';
import { anthropicStream, startAnthropicServer } from '../helpers/anthropic-server.js';
import type { RecordedRequest, ScriptedResponse, ScriptedServer } from '../helpers/anthropic-server.js';
import { openaiStream, startOpenAIServer } from '../helpers/openai-server.js';

// Provider overhead against loopback servers: how soon the first text_delta follows the
// server's first byte, and how many deltas per second the SDK + our assembly sustain.

const LATENCY_RUNS = 30;
const DELTAS = 10_000;

function request(): ModelRequest {
  return {
    model: 'bench',
    system: 'bench',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
    tools: [],
    maxTokens: 1000,
    signal: new AbortController().signal,
  };
}

interface Timed {
  firstDeltaAt: number;
  endAt: number;
  deltas: number;
}

async function timedCall(provider: ModelProvider): Promise<Timed> {
  let firstDeltaAt = 0;
  let deltas = 0;
  let complete = false;
  for await (const e of provider.stream(request())) {
    if (e.type === 'text_delta') {
      if (deltas === 0) firstDeltaAt = performance.now();
      deltas++;
    } else if (e.type === 'message') complete = true;
  }
  if (!complete) throw new Error(`${provider.name}: bench call did not complete`);
  return { firstDeltaAt, endAt: performance.now(), deltas };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function measure(
  label: string,
  start: (script: (req: RecordedRequest<unknown>, i: number) => ScriptedResponse) => Promise<ScriptedServer<unknown>>,
  make: (url: string) => ModelProvider,
  smallStream: string[],
  bigStream: string[],
): Promise<Record<string, number>> {
  let big = false;
  const server = await start(() => ({ chunks: big ? bigStream : smallStream }));
  try {
    const provider = make(server.url);
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_RUNS; i++) {
      const t = await timedCall(provider);
      const firstByteAt = server.requests.at(-1)?.firstByteAt;
      if (firstByteAt === undefined) throw new Error(`${label}: server wrote nothing`);
      latencies.push(t.firstDeltaAt - firstByteAt);
    }
    big = true;
    const t = await timedCall(provider);
    const firstByteAt = server.requests.at(-1)?.firstByteAt ?? t.firstDeltaAt;
    if (t.deltas !== DELTAS) throw new Error(`${label}: expected ${DELTAS} deltas, got ${t.deltas}`);
    return {
      [`${label}_first_delta_ms`]: median(latencies),
      [`${label}_deltas_per_s`]: Math.round(t.deltas / ((t.endAt - firstByteAt) / 1000)),
    };
  } finally {
    await server.close();
  }
}

/** Goal: > 20,000 deltas/s for both providers. */
export async function benchProviders(): Promise<Record<string, number>> {
  const manyChars = 'x'.repeat(DELTAS);
  const anthropic = await measure(
    'anthropic',
    (script) => startAnthropicServer(script),
    (url) => createAnthropicProvider({ apiKey: 'bench', baseUrl: url, model: 'bench', maxRetries: 0 }),
    anthropicStream({ content: [{ type: 'text', text: 'hello world' }], chunkSize: 3 }),
    anthropicStream({ content: [{ type: 'text', text: manyChars }], chunkSize: 1 }),
  );
  const openai = await measure(
    'openai',
    (script) => startOpenAIServer(script),
    (url) => createOpenAIProvider({ apiKey: 'bench', baseUrl: url, model: 'bench', maxRetries: 0 }),
    openaiStream({ text: 'hello world', chunkSize: 3 }),
    openaiStream({ text: manyChars, chunkSize: 1 }),
  );
  return { ...anthropic, ...openai };
}
