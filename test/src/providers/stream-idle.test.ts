import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/providers/anthropic.js';
import { loadProviderConfig } from '../../../src/providers/config.js';
import type { ModelRequest, ModelStreamEvent } from '../../../src/providers/provider.js';
import { anthropicReply, anthropicStream, startAnthropicServer, type AnthropicRequestBody, type Script, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { runCairn, tempWorkspace } from '../../helpers/run-cairn.js';

// A stream that sends its headers (and maybe a first event) and then nothing: before, the call
// waited forever ("thinking 64s" and counting).

const servers: Array<ScriptedServer<AnthropicRequestBody>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function serve(script: Script<AnthropicRequestBody>): Promise<ScriptedServer<AnthropicRequestBody>> {
  const server = await startAnthropicServer(script);
  servers.push(server);
  return server;
}

const stall = { chunks: anthropicStream({ content: [{ type: 'text', text: 'never finished' }] }).slice(0, 1), hold: true };

async function collect(events: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

function provider(server: ScriptedServer<AnthropicRequestBody>, streamIdleTimeoutMs: number) {
  return createAnthropicProvider({ apiKey: 'sk-test', baseUrl: server.url, model: 'claude-test', sleep: async () => undefined, random: () => 0.5, streamIdleTimeoutMs });
}
const request = (): ModelRequest => ({ model: 'claude-test', maxTokens: 100, system: '', messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], tools: [], signal: new AbortController().signal });

describe('a stream that stalls after its headers', () => {
  it('is dropped after the idle timeout and retried; the retry completes', async () => {
    const server = await serve([stall, anthropicReply([{ type: 'text', text: 'second try' }])]);
    const events = await collect(provider(server, 400).stream(request()));
    const retry = events.find((e) => e.type === 'notice');
    expect(retry).toMatchObject({ code: 'retry', message: expect.stringMatching(/stream stalled \(no data from the model for 0\.4 s\), retrying/) });
    const message = events.find((e) => e.type === 'message');
    expect(JSON.stringify(message)).toContain('second try');
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]!.disconnected).toBe(true);
  });

  it('when every attempt stalls, the call ends with an error naming the wait and the setting', async () => {
    const server = await serve(() => stall);
    await expect(collect(provider(server, 300).stream(request()))).rejects.toThrow(
      new RegExp(`anthropic: the stream from ${server.url.replace(/[.]/g, '\\.')} stalled: no data from the model for 0\\.3 s \\(streamIdleTimeoutSeconds in config\\.json sets how long to wait\\) \\(gave up after 3 attempts\\)`),
    );
    expect(server.requests).toHaveLength(3);
  });

  it('a slow but steady stream is not cut: the timer restarts with every event', async () => {
    const server = await serve([{ ...anthropicReply([{ type: 'text', text: 'slow and steady' }], { chunkSize: 3 }), delayMs: 150 }]);
    const events = await collect(provider(server, 600).stream(request()));
    expect(events.some((e) => e.type === 'notice')).toBe(false);
    expect(JSON.stringify(events.find((e) => e.type === 'message'))).toContain('slow and steady');
  });

  it('config.json streamIdleTimeoutSeconds sets it for cairn -p; a bad value names the file and field', async () => {
    const ws = await tempWorkspace();
    await fs.writeFile(path.join(ws.home, 'config.json'), JSON.stringify({ streamIdleTimeoutSeconds: 0.5 }));
    const server = await serve([stall, anthropicReply([{ type: 'text', text: 'answered after the stall' }])]);
    const run = await runCairn(['-p', 'hi', '--provider', 'anthropic'], { cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url }, timeoutMs: 30_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('answered after the stall');
    expect(run.stderr).toMatch(/stream stalled \(no data from the model for 0\.5 s\)/);

    await fs.writeFile(path.join(ws.home, 'config.json'), JSON.stringify({ streamIdleTimeoutSeconds: 'soon' }));
    expect(() => loadProviderConfig(ws.home)).toThrow(`${path.join(ws.home, 'config.json')}: streamIdleTimeoutSeconds:`);
  });
});
