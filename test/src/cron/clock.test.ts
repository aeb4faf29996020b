import { describe, expect, it } from 'vitest';
import { clockFromEnv, createFakeClock, createScaledClock, systemClock, type Clock } from '../../../src/clock.js';

describe('fake clock', () => {
  it('fires due timers in due order at their due time, including timers set while firing', () => {
    const clock = createFakeClock(1000);
    const seen: string[] = [];
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => {
      seen.push(`a@${clock.now()}`);
      clock.setTimeout(() => seen.push(`c@${clock.now()}`), 5);
    }, 10);
    const late = clock.setTimeout(() => seen.push('never'), 100);
    clock.advance(30);
    expect(seen).toEqual(['a@1010', 'c@1015', 'b@1020']);
    expect(clock.now()).toBe(1030);
    clock.clearTimeout(late);
    clock.advanceTo(2000);
    expect(seen).toHaveLength(3);
    expect(clock.pendingTimers()).toBe(0);
  });

  it('fires timers with the same due time in the order they were set, and never goes back', () => {
    const clock = createFakeClock(0);
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) clock.setTimeout(() => seen.push(i), 5);
    clock.advanceTo(5);
    clock.advanceTo(1);
    expect(seen).toEqual([0, 1, 2]);
    expect(clock.now()).toBe(5);
  });
});

describe('scaled clock', () => {
  it('runs time N times faster from its anchor and shrinks timer delays', () => {
    let real = 10_000;
    const delays: number[] = [];
    const base: Clock = {
      now: () => real,
      setTimeout: (_fn, ms) => {
        delays.push(ms);
        return {};
      },
      clearTimeout: () => {},
    };
    const clock = createScaledClock(60, base);
    expect(clock.now()).toBe(10_000);
    real += 1000;
    expect(clock.now()).toBe(10_000 + 60_000);
    clock.setTimeout(() => {}, 60_000);
    expect(delays).toEqual([1000]);
  });

  it('reads CAIRN_CLOCK_SPEED and rejects a bad value naming the variable', async () => {
    expect(clockFromEnv({})).toBe(systemClock);
    const fast = clockFromEnv({ CAIRN_CLOCK_SPEED: '1000' });
    const t0 = fast.now();
    await new Promise((r) => setTimeout(r, 20));
    expect(fast.now() - t0).toBeGreaterThanOrEqual(10_000);
    expect(() => clockFromEnv({ CAIRN_CLOCK_SPEED: 'fast' })).toThrow(/CAIRN_CLOCK_SPEED must be a positive number, got "fast"/);
    expect(() => clockFromEnv({ CAIRN_CLOCK_SPEED: '0' })).toThrow(/CAIRN_CLOCK_SPEED/);
  });
});
