import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPriceTable, costOf, costSummary, formatCost, priceFor, PRICES_CHECKED } from '../../src/pricing.js';
import { loadSessionConfig } from '../../src/session/session-config.js';

describe('pricing', () => {
  it('is dated, and finds a model by its id, a dated id, or a router id', () => {
    expect(PRICES_CHECKED).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(priceFor(builtinPriceTable, 'claude-sonnet-5-5')).toMatchObject({ input: 2, output: 10 });
    expect(priceFor(builtinPriceTable, 'claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(priceFor(builtinPriceTable, 'claude-opus-4-5-20251101')).toMatchObject({ input: 5, output: 25 });
    expect(priceFor(builtinPriceTable, 'anthropic/claude-sonnet-5.5')).toMatchObject({ input: 2, output: 10 });
    expect(priceFor(builtinPriceTable, 'openai/gpt-5.4')).toMatchObject({ input: 2.5, output: 15 });
    expect(priceFor(builtinPriceTable, 'gpt-5.4-mini')).toMatchObject({ input: 0.75 });
  });

  it('does not stretch a family to a different version: gpt-5 is not gpt-5.3, and unknown models have no price', () => {
    expect(priceFor(builtinPriceTable, 'gpt-5.3-chat-latest')).toBeUndefined();
    expect(priceFor(builtinPriceTable, 'qwen2.5-coder')).toBeUndefined();
    expect(priceFor(builtinPriceTable, 'deepseek-chat')).toBeUndefined();
  });

  it('costs input, output, cache reads and writes at their own rates', () => {
    const price = { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5 };
    expect(costOf({ input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 400_000 }, price)).toBeCloseTo(2 + 1 + 0.2 + 1, 10);
    // No cache prices: charged as input.
    expect(costOf({ input: 0, output: 0, cacheRead: 1_000_000, cacheWrite: 0 }, { input: 3, output: 15 })).toBeCloseTo(3, 10);
    expect(formatCost(0.024)).toBe('$0.02');
    expect(formatCost(0.00031)).toBe('$0.00031');
    expect(formatCost(12.1)).toBe('$12.10');
  });

  it('sums per model and names the models without a price', () => {
    const summary = costSummary(
      { 'claude-sonnet-5-5': { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0 }, 'my-local': { input: 5, output: 5, cacheRead: 0, cacheWrite: 0 } },
      builtinPriceTable,
    );
    expect(summary.total).toBeCloseTo(2, 10);
    expect(summary.unpriced).toEqual(['my-local']);
  });
});

describe('config.json: pricing and continueOnMaxTokens', () => {
  async function home(config: unknown): Promise<string> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-pricing-'));
    await fs.writeFile(path.join(dir, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
    return dir;
  }

  it('defaults when the file is absent', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-pricing-'));
    expect(loadSessionConfig(dir)).toEqual({ continueOnMaxTokens: false, pricing: builtinPriceTable, archiveSessions: true, approvalTimeoutSeconds: { web: 180, tui: 0 } });
  });

  it('overrides a built-in price and adds a model of its own', async () => {
    const config = loadSessionConfig(await home({ continueOnMaxTokens: true, pricing: { 'claude-sonnet-5-5': { input: 1, output: 5 }, 'My-Local': { input: 0.5, output: 1 } } }));
    expect(config.continueOnMaxTokens).toBe(true);
    expect(priceFor(config.pricing, 'claude-sonnet-5-5')).toEqual({ input: 1, output: 5 });
    expect(priceFor(config.pricing, 'my-local')).toEqual({ input: 0.5, output: 1 });
    expect(config.pricing.fromConfig).toEqual(['claude-sonnet-5-5', 'my-local']);
    expect(config.pricing.checked).toBe(PRICES_CHECKED);
  });

  it('a malformed entry stops start-up naming the file and field', async () => {
    const dir = await home({ continueOnMaxTokens: 'yes', pricing: { 'x-model': { input: -1, output: 2 } } });
    expect(() => loadSessionConfig(dir)).toThrow(/config\.json: continueOnMaxTokens: expected true or false/);
    expect(() => loadSessionConfig(dir)).toThrow(/config\.json: pricing\.x-model\.input: /);
  });

  it('approvalTimeoutSeconds: the page answers no after 180 s and the terminal waits, unless config.json says otherwise', async () => {
    expect(loadSessionConfig(await home({})).approvalTimeoutSeconds).toEqual({ web: 180, tui: 0 });
    expect(loadSessionConfig(await home({ approvalTimeoutSeconds: { tui: 300 } })).approvalTimeoutSeconds).toEqual({ web: 180, tui: 300 });
    const bad = await home({ approvalTimeoutSeconds: { web: -1, desktop: 5 } });
    expect(() => loadSessionConfig(bad)).toThrow(/config\.json: approvalTimeoutSeconds\.web: expected seconds, 0 or more/);
    expect(() => loadSessionConfig(bad)).toThrow(/config\.json: approvalTimeoutSeconds\.desktop: unknown key/);
  });
});
