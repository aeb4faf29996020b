// The shapes of shell watches (shell-watches.ts): the limits, what a watch is, how one starts.

export interface WatchLimits {
  /** Lines are gathered this long before a delivery. */
  batchMs: number;
  /** Lines per delivery; the rest are dropped and counted. */
  maxLines: number;
  /** Deliveries per window; more wait for the window to move on (their lines capped meanwhile). */
  perWindow: number;
  windowMs: number;
  /** A longer line is cut to this. */
  maxLineChars: number;
  /** A batch the pattern takes longer than this on ends the watch. */
  regexTimeoutMs: number;
  /** A watch that keeps dropping lines this long is stopped (its command too, when it owns one): it floods. */
  floodMs: number;
  /** Batches that drop lines with no longer pause than this between them are one flood. */
  floodGapMs: number;
}

export const DEFAULT_WATCH_LIMITS: WatchLimits = {
  batchMs: 1_000,
  maxLines: 20,
  perWindow: 6,
  windowMs: 60_000,
  maxLineChars: 400,
  regexTimeoutMs: 2_000,
  floodMs: 30_000,
  floodGapMs: 5_000,
};

export interface WatchInfo {
  shellId: string;
  command: string;
  pattern?: string;
  description?: string;
  /** Lines delivered so far. */
  delivered: number;
  dropped: number;
  /** The watch started the command (monitor {command}): ending the watch stops the command. */
  owned?: boolean;
  /** An owned watch's timeout, and when it expires (clock time); absent: it runs until stopped. */
  timeoutMs?: number;
  expiresAt?: number;
}

export interface WatchOptions {
  /** Must already be a valid RegExp source. */
  pattern?: string;
  description?: string;
  /**
   * The watch started this shell (monitor {command}) and owns it: absent timeoutMs, it runs until
   * stopped (persistent). A new watch of a shell an owned watch held keeps the ownership and deadline.
   */
  owned?: { timeoutMs?: number };
}

export type WatchStart = { ok: true; info: WatchInfo; replaced: boolean } | { ok: false; error: string };

export interface ShellWatches {
  /** Starts (or restarts, with the new pattern) watching a running shell. */
  start(shellId: string, opts: WatchOptions): WatchStart;
  /** Stops a watch (the model's or the user's call), and its command when it owns one; false when the shell is not watched. */
  stop(shellId: string, reason: string): boolean;
  list(): WatchInfo[];
  /** Notes for the model's next request, one per delivery; emptied. */
  drainNotes(): string[];
  /** How many notes wait. */
  readonly pending: number;
  /** Called after each delivery is queued. */
  onDelivery(listener: () => void): void;
  stopAll(): void;
}
