import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROVIDER_PRESETS } from '../../../src/providers/presets.js';
import type { ModelStreamEvent } from '../../../src/providers/provider.js';
import { createProvider } from '../../../src/providers/registry.js';
import { anthropicReply, startAnthropicServer } from '../../helpers/anthropic-server.js';
import { openaiReply, startOpenAIServer } from '../../helpers/openai-server.js';

// The bundled SDKs know which models are at or near end of life and say so on every request
// (console.warn), which a full-screen app cannot show. Each preset's default must be one they
// send without a word: checked by sending a real request through the real SDK to a loopback server.
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(closers.splice(0).map((close) => close()));
});

const remote = Object.entries(PROVIDER_PRESETS).filter(([, preset]) => preset.api !== 'offline');

describe('provider presets', () => {
  it.each(remote)('%s: a request with the default model and thinking on prints no warning', async (name, preset) => {
    const server =
      preset.api === 'anthropic'
        ? await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'ok' }]))
        : await startOpenAIServer(() => openaiReply({ text: 'ok' }));
    closers.push(() => server.close());
    const said: string[] = [];
    for (const method of ['warn', 'error', 'log', 'info'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void said.push(`console.${method}: ${args.join(' ')}`));
    }
    const onWarning = (w: Error): number => said.push(`warning: ${w.message}`);
    process.on('warning', onWarning);
    closers.push(async () => void process.off('warning', onWarning));

    const provider = createProvider(
      {
        name,
        api: preset.api,
        model: preset.defaultModel,
        baseUrl: server.url,
        apiKey: 'test-key',
        contextWindow: preset.contextWindow,
        thinking: { enabled: true, budgetTokens: 2048 },
        source: 'test',
        modelSource: 'default',
      },
      { createOffline: () => expect.fail('not offline') },
    );
    const events: ModelStreamEvent[] = [];
    for await (const event of provider.stream({
      model: preset.defaultModel,
      system: 'sys',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [],
      maxTokens: 1024,
      signal: new AbortController().signal,
    })) {
      events.push(event);
    }
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(events.at(-1)).toMatchObject({ type: 'message' });
    expect(server.requests[0]?.body).toMatchObject({ model: preset.defaultModel });
    expect(said).toEqual([]);
  });
});
