// Time as the engine sees it. Everything that schedules (cron, timers shown to the user) takes a
// Clock so unit tests can run a day in a millisecond and end-to-end tests can run the whole app
// faster than real time.
import { timerDelay } from './util/timer-limit.js';

/** Opaque: only the clock that made it can clear it. */
export type TimerHandle = object;

export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
  /** Calls fn after ms of this clock's time. Timers never keep the process alive on their own. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export interface FakeClock extends Clock {
  /** Moves time forward by ms, firing every timer that falls due, in due order, at its due time. */
  advance(ms: number): void;
  /** Moves time forward to an absolute instant (never backwards). */
  advanceTo(time: number): void;
  /** Timers still waiting. */
  pendingTimers(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, timerDelay(ms));
    // The app's lifetime is owned by the TUI / headless run, not by background schedules.
    t.unref();
    return t;
  },
  clearTimeout(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

/**
 * For end-to-end tests only (CAIRN_CLOCK_SPEED=N): one real second counts as `speed` seconds,
 * anchored at creation, so `now()` starts at the real time and then runs fast. Timer delays shrink
 * by the same factor. Never use it for anything a user relies on.
 */
export function createScaledClock(speed: number, base: Clock = systemClock): Clock {
  if (!Number.isFinite(speed) || speed <= 0) throw new Error(`clock speed must be a positive number, got ${speed}`);
  const anchor = base.now();
  return {
    now: () => anchor + (base.now() - anchor) * speed,
    setTimeout: (fn, ms) => base.setTimeout(fn, ms / speed),
    clearTimeout: (handle) => base.clearTimeout(handle),
  };
}

/** Reads CAIRN_CLOCK_SPEED; the system clock when unset. Throws naming the variable when it is not a positive number. */
export function clockFromEnv(env: NodeJS.ProcessEnv = process.env): Clock {
  const raw = env['CAIRN_CLOCK_SPEED'];
  if (raw === undefined || raw.trim() === '') return systemClock;
  const speed = Number(raw);
  if (!Number.isFinite(speed) || speed <= 0) {
    throw new Error(`CAIRN_CLOCK_SPEED must be a positive number, got "${raw}"`);
  }
  return speed === 1 ? systemClock : createScaledClock(speed);
}

interface FakeTimer {
  due: number;
  seq: number;
  fn: () => void;
}

/** A manual clock for unit tests: time moves only through advance/advanceTo. */
export function createFakeClock(start = 0): FakeClock {
  let current = start;
  let seq = 0;
  const timers = new Map<TimerHandle, FakeTimer>();

  const nextDue = (limit: number): [TimerHandle, FakeTimer] | undefined => {
    let best: [TimerHandle, FakeTimer] | undefined;
    for (const entry of timers) {
      const t = entry[1];
      if (t.due > limit) continue;
      if (!best || t.due < best[1].due || (t.due === best[1].due && t.seq < best[1].seq)) best = entry;
    }
    return best;
  };

  const advanceTo = (time: number): void => {
    if (time < current) return;
    // Timers set by a firing timer that fall inside the window fire too.
    for (let entry = nextDue(time); entry; entry = nextDue(time)) {
      timers.delete(entry[0]);
      current = Math.max(current, entry[1].due);
      entry[1].fn();
    }
    current = time;
  };

  return {
    now: () => current,
    setTimeout(fn, ms) {
      const handle = {};
      timers.set(handle, { due: current + Math.max(0, ms), seq: seq++, fn });
      return handle;
    },
    clearTimeout(handle) {
      timers.delete(handle);
    },
    advance: (ms) => advanceTo(current + ms),
    advanceTo,
    pendingTimers: () => timers.size,
  };
}
