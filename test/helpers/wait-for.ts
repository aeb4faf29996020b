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
