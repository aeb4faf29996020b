import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { query } from '../../src/loop/query.js';
import { userText, type Message } from '../../src/messages.js';
import type { PermissionChecker } from '../../src/permissions/types.js';
import type { ModelProvider, ModelStreamEvent } from '../../src/providers/provider.js';
import { createReadFileTool } from '../../src/tools/read-file.js';
import { defineTool, type AnyTool } from '../../src/tools/tool.js';

const allowAll: PermissionChecker = {
  mode: 'default',
  setMode() {},
  check: async () => ({ behavior: 'allow', reason: 'bench' }),
  addSessionRules() {},
  saveProjectRules: async () => {},
  readDeniedMatcher: async () => () => false,
  rules: () => ({ allow: [], ask: [], deny: [] }),
};

/** A model that asks for `callsPerTurn` calls per turn until `total` have been made. */
function callingModel(name: string, total: number, callsPerTurn: number, input: (i: number) => unknown): ModelProvider {
  let made = 0;
  return {
    name: 'bench',
    model: 'bench',
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      if (made >= total) {
        yield { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] }, stopReason: 'end_turn' };
        return;
      }
      const content: Message['content'] = [];
      for (let k = 0; k < callsPerTurn && made < total; k++, made++) {
        content.push({ type: 'tool_use', id: `t${made}`, name, input: input(made) });
      }
      yield { type: 'message', message: { role: 'assistant', content }, stopReason: 'tool_use' };
    },
  };
}

async function drive(provider: ModelProvider, tools: AnyTool[], cwd: string, concurrency?: number): Promise<number> {
  const start = performance.now();
  for await (const event of query({
    messages: [], prompt: userText('bench'), provider, tools, permissions: allowAll, system: () => 'bench',
    cwd, signal: new AbortController().signal, maxTurns: 5000, ...(concurrency ? { concurrency } : {}),
  })) {
    if (event.type === 'terminal' && event.reason !== 'completed') throw new Error(`bench run ended: ${event.reason} ${event.error ?? ''}`);
  }
  return performance.now() - start;
}

/** Loop overhead per tool call: 1,000 calls of a no-op tool, one per turn (the worst case: a model call each). */
export async function benchLoopOverhead(): Promise<{ perCallMs: number; perCallMsBatched: number }> {
  const noop = defineTool({ name: 'noop', description: '', kind: 'read', inputSchema: z.object({ i: z.number() }), effects: () => 'none' as const, isConcurrencySafe: () => true, call: async () => ({ content: 'ok' }) });
  await drive(callingModel('noop', 200, 1, (i) => ({ i })), [noop], os.tmpdir()); // warm up
  const serial = await drive(callingModel('noop', 1000, 1, (i) => ({ i })), [noop], os.tmpdir());
  const batched = await drive(callingModel('noop', 1000, 10, (i) => ({ i })), [noop], os.tmpdir());
  return { perCallMs: serial / 1000, perCallMsBatched: batched / 1000 };
}

/** 8 reads of slow files in one parallel batch vs one at a time. A slow file answers after `latencyMs`. */
export async function benchParallelReads(latencyMs = 100): Promise<{ slowestSingleMs: number; parallelMs: number; serialMs: number }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-bench-'));
  for (let i = 0; i < 8; i++) await fs.writeFile(path.join(dir, `f${i}.txt`), `line\n`.repeat(1000));
  const read = createReadFileTool();
  const slowRead: typeof read = {
    ...read,
    async call(input, ctx) {
      await new Promise((r) => setTimeout(r, latencyMs));
      return read.call(input, ctx);
    },
  };
  const files = (i: number) => ({ path: `f${i % 8}.txt` });
  let slowestSingleMs = 0;
  for (let i = 0; i < 8; i++) slowestSingleMs = Math.max(slowestSingleMs, await drive(callingModel('read_file', 1, 1, () => files(i)), [slowRead], dir));
  const parallelMs = await drive(callingModel('read_file', 8, 8, files), [slowRead], dir);
  const serialMs = await drive(callingModel('read_file', 8, 1, files), [slowRead], dir);
  await fs.rm(dir, { recursive: true, force: true });
  return { slowestSingleMs, parallelMs, serialMs };
}
