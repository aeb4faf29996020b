import { afterEach, describe, expect, it, vi } from 'vitest';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';

// The Anthropic provider module (and the SDK it imports) is loaded lazily: this records when.
const loads = vi.hoisted(() => ({ anthropic: 0 }));
vi.mock('../../../src/providers/anthropic.js', async (importOriginal) => {
  loads.anthropic++;
  return importOriginal();
});

afterEach(closeAnthropicRuntimes);

describe("the model's SDK loads in start-up's last phase, before the first prompt", () => {
  it('finishStartup loads the provider module with no model call made; the first call then streams', async () => {
    const { runtime, server } = await anthropicRuntime({ runtime: { deferStartup: true, interactive: true } });
    expect(loads.anthropic).toBe(0);
    await runtime.finishStartup();
    await vi.waitFor(() => expect(loads.anthropic).toBe(1));
    expect(server.requests).toHaveLength(0);
    const terminal = await runtime.session.run('hello');
    expect(terminal.reason).toBe('completed');
    expect(server.requests).toHaveLength(1);
    expect(loads.anthropic).toBe(1);
  });
});
