import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/providers/provider.js';
import type { ModelStreamEvent } from '../../../src/providers/provider.js';
import { backoffMs, defaultSleep, parseRetryAfter, withRetries } from '../../../src/providers/retry.js';
import { invalidToolArguments, parseToolArguments } from '../../../src/providers/tool-arguments.js';

describe('parseRetryAfter', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '3' }))).toBe(250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles per retry within +-25% jitter and stops at the cap', () => {
    expect(backoffMs(1, () => 0)).toBe(750);
    expect(backoffMs(1, () => 1)).toBe(1250);
    expect(backoffMs(3, () => 0.5)).toBe(4000);
    expect(backoffMs(20, () => 0.5)).toBe(30_000);
  });
});

describe('withRetries', () => {
  it('caps a huge Retry-After and aborts a pending wait at once', async () => {
    const controller = new AbortController();
    const delays: number[] = [];
    const stream = withRetries(
      // eslint-disable-next-line require-yield -- a stream that fails before its first event
      async function* (): AsyncGenerator<ModelStreamEvent> {
        throw new Error('boom');
      },
      () => ({ retryable: true, label: 'rate limited (429)', message: 'x', retryAfterMs: 3_600_000 }),
      {
        provider: 'p',
        signal: controller.signal,
        sleep: (ms, signal) => {
          delays.push(ms);
          setTimeout(() => controller.abort(), 5);
          return defaultSleep(ms, signal);
        },
      },
    );
    const started = Date.now();
    const events: ModelStreamEvent[] = [];
    const error = await (async () => {
      try {
        for await (const e of stream) events.push(e);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(delays).toEqual([60_000]);
    expect(events).toEqual([{ type: 'notice', level: 'warning', code: 'retry', message: 'p: rate limited (429), retrying in 60.0s (attempt 2 of 3)' }]);
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('passes a ProviderError through untouched and unretried', async () => {
    let calls = 0;
    const stream = withRetries(
      // eslint-disable-next-line require-yield -- a stream that fails before its first event
      async function* (): AsyncGenerator<ModelStreamEvent> {
        calls++;
        throw new ProviderError('already final', 400);
      },
      () => ({ retryable: true, label: 'x', message: 'x' }),
      { provider: 'p', signal: new AbortController().signal, sleep: async () => {} },
    );
    await expect(stream.next()).rejects.toThrow('already final');
    expect(calls).toBe(1);
  });
});

describe('tool arguments', () => {
  it('parses objects, treats empty as no arguments and keeps anything else as raw text', () => {
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments('  ')).toEqual({});
    expect(parseToolArguments('{"a":')).toEqual({ _raw_arguments: '{"a":' });
    expect(parseToolArguments('"just a string"')).toEqual({ _raw_arguments: '"just a string"' });
    expect(invalidToolArguments({ a: 1 })).toBeUndefined();
    expect(invalidToolArguments({ _raw_arguments: 'x', other: 1 })).toBeUndefined();
    expect(invalidToolArguments({ _raw_arguments: '{"a":' })).toMatch(/not a valid JSON object.*You sent: \{"a":/s);
  });
});
