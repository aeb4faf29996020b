/** Polls `check` until it stops throwing (or returns true); never a fixed sleep. */
export async function waitFor<T>(check: () => T | Promise<T>, options: { timeout?: number; interval?: number; message?: string } = {}): Promise<T> {
  const timeout = options.timeout ?? 8000;
  const interval = options.interval ?? 5;
  const deadline = Date.now() + timeout;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false) return value;
      lastError = new Error('condition returned false');
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(`${options.message ?? 'waitFor timed out'} after ${timeout}ms: ${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * Waits until `read` returns the same value for `quietMs` on end, and returns it: "the last frame
 * has landed" without guessing how long that takes.
 */
export async function waitForSteady<T>(read: () => T | Promise<T>, options: { quietMs: number; timeout?: number; message?: string }): Promise<T> {
  let last = await read();
  let since = Date.now();
  await waitFor(async () => {
    const value = await read();
    if (value !== last) {
      last = value;
      since = Date.now();
    }
    return Date.now() - since >= options.quietMs;
  }, { ...(options.timeout !== undefined ? { timeout: options.timeout } : {}), message: options.message ?? 'waitForSteady: still changing' });
  return last;
}

/**
 * For claims that something does not happen: checks `check` throughout `durationMs`, and fails
 * at the first check that does not hold (instead of sleeping and looking once at the end).
 */
export async function holdsFor(check: () => boolean | Promise<boolean>, durationMs: number, options: { interval?: number; message?: string } = {}): Promise<void> {
  const interval = options.interval ?? 20;
  const end = Date.now() + durationMs;
  for (;;) {
    if (!(await check())) throw new Error(`${options.message ?? 'holdsFor: the condition stopped holding'} after ${durationMs - (end - Date.now())}ms`);
    if (Date.now() >= end) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(interval, Math.max(0, end - Date.now()))));
  }
}
