// The one place a wait the user configured (a hook's `timeout`, MCP_TIMEOUT...) becomes a timer
// delay. Node's setTimeout holds at most 2^31-1 ms (about 24.8 days); beyond that it fires after
// 1 ms, so a "wait a very long time" would kill a guard hook at once.

/** setTimeout's largest delay. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The longest cairn waits on anything a user configured: a day. */
export const MAX_CONFIGURED_WAIT_MS = 24 * 60 * 60 * 1000;

/** A delay setTimeout keeps as given: a whole number of ms within 0 and MAX_TIMER_MS. */
export function timerDelay(ms: number): number {
  if (!Number.isFinite(ms)) return ms > 0 ? MAX_TIMER_MS : 0;
  return Math.min(Math.max(0, Math.round(ms)), MAX_TIMER_MS);
}

/** A configured wait in ms, at most MAX_CONFIGURED_WAIT_MS; `clamped` says it was cut, for the caller to report. */
export function clampConfiguredWait(ms: number): { ms: number; clamped: boolean } {
  if (ms > MAX_CONFIGURED_WAIT_MS) return { ms: MAX_CONFIGURED_WAIT_MS, clamped: true };
  return { ms: timerDelay(ms), clamped: false };
}
