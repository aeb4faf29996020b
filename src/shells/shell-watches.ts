import { systemClock, type Clock, type TimerHandle } from '../clock.js';
import type { AgentEvent, EventOf } from '../events.js';
import { ChunkLines } from '../tools/bash-progress.js';
import { RegexSearch } from '../tools/regex-worker.js';
import type { ShellInfo, ShellManager } from './shell-manager.js';
import { deliveryNote, duration, endNote, endText, type WatchCause } from './watch-notes.js';
import { DEFAULT_WATCH_LIMITS, type ShellWatches, type WatchInfo, type WatchLimits } from './watch-types.js';

// Watching a background shell's output (the monitor tool, issue 38 item 3): its new lines, those
// matching an optional pattern, reach the model as notes for its next request, batched and
// rate-limited, and as `shell_watch` events the user sees. When the lead is idle, background-work.ts
// starts a turn for them. The pattern runs in a worker thread with a deadline (regex-worker.ts),
// so a pattern that backtracks for ever stops the watch, never the engine. A watch that started its
// command (monitor {command}) owns it: its timeout, a flood, or stopping the watch stops the command.

export { DEFAULT_WATCH_LIMITS, type ShellWatches, type WatchInfo, type WatchLimits, type WatchOptions, type WatchStart } from './watch-types.js';

/** Lines waiting for the pattern in one batch; more are dropped (a flood is not searched line by line). */
const MAX_RAW_LINES = 10_000;

type WatchEvent = EventOf<'shell_watch'>;

interface Watch {
  info: WatchInfo;
  unfollow: () => void;
  splitters: [ChunkLines, ChunkLines];
  raw: string[];
  /** Matching lines waiting for a delivery (at most maxLines). */
  ready: string[];
  /** Lines dropped since the last delivery. */
  droppedSince: number;
  /** When the last deliveries went, for the rate limit. */
  sent: number[];
  batchTimer?: TimerHandle;
  rateTimer?: TimerHandle;
  expiryTimer?: TimerHandle;
  /** Lines dropped since the last batch was judged, and the flood those batches are part of. */
  batchDrops: number;
  flood?: { since: number; last: number; suppressed: number };
  /** The pattern's filtering, one batch at a time. */
  work: Promise<void>;
  regex?: RegexSearch;
  controller: AbortController;
  over: boolean;
}

export function createShellWatches(opts: { shells: ShellManager; emit: (event: AgentEvent) => void; clock?: Clock; limits?: Partial<WatchLimits> }): ShellWatches {
  const clock = opts.clock ?? systemClock;
  const limits: WatchLimits = { ...DEFAULT_WATCH_LIMITS, ...opts.limits };
  const watches = new Map<string, Watch>();
  const notes: string[] = [];
  const listeners: Array<() => void> = [];

  const event = (w: Watch, status: WatchEvent['status'], extra: Partial<WatchEvent> = {}): void => {
    opts.emit({
      type: 'shell_watch',
      shell_id: w.info.shellId,
      command: w.info.command,
      status,
      ...(w.info.pattern !== undefined ? { pattern: w.info.pattern } : {}),
      ...extra,
    });
  };

  const queue = (note: string): void => {
    notes.push(note);
    for (const l of listeners) l();
  };

  const deliver = (w: Watch): void => {
    if (w.ready.length === 0 && w.droppedSince === 0) return;
    const lines = w.ready.splice(0);
    const dropped = w.droppedSince;
    w.droppedSince = 0;
    w.sent.push(clock.now());
    w.info.delivered += lines.length;
    // The user's notice first: a queued note may start a turn at once.
    event(w, 'lines', { lines, ...(dropped > 0 ? { dropped } : {}) });
    queue(deliveryNote(w.info, lines, dropped));
  };

  const drop = (w: Watch, n: number): void => {
    w.droppedSince += n;
    w.info.dropped += n;
    w.batchDrops += n;
  };

  /**
   * After each batch: a batch that dropped nothing ends a flood; batches that keep dropping lines,
   * with no pause longer than floodGapMs, for floodMs in all are a flood, which stops the watch.
   * True when it did.
   */
  const flooded = (w: Watch): boolean => {
    const dropped = w.batchDrops;
    w.batchDrops = 0;
    if (dropped === 0) {
      delete w.flood;
      return false;
    }
    const now = clock.now();
    if (!w.flood || now - w.flood.last > limits.floodGapMs) w.flood = { since: now, last: now, suppressed: 0 };
    w.flood.last = now;
    w.flood.suppressed += dropped;
    if (now - w.flood.since < limits.floodMs) return false;
    finish(w, 'stopped', `it printed more lines than can be delivered for ${duration(limits.floodMs)} (${w.flood.suppressed} suppressed)`, { cause: 'flood' });
    return true;
  };

  /** Delivers now if the rate allows, else once the window has moved on. */
  const tryDeliver = (w: Watch): void => {
    if (w.over || w.rateTimer) return;
    const now = clock.now();
    w.sent = w.sent.filter((t) => now - t < limits.windowMs);
    if (w.sent.length < limits.perWindow) return deliver(w);
    const wait = (w.sent[0] ?? now) + limits.windowMs - now;
    w.rateTimer = clock.setTimeout(() => {
      delete w.rateTimer;
      tryDeliver(w);
    }, Math.max(1, wait));
  };

  const take = (w: Watch, lines: readonly string[]): void => {
    for (const line of lines) {
      if (w.ready.length < limits.maxLines) w.ready.push(line.length > limits.maxLineChars ? `${line.slice(0, limits.maxLineChars)}…` : line);
      else drop(w, 1);
    }
  };

  /** The raw lines so far, through the pattern, into `ready`. Resolves false when the pattern ran away (the watch is then over). */
  const filter = async (w: Watch): Promise<boolean> => {
    const lines = w.raw.splice(0);
    if (lines.length === 0) return true;
    if (!w.regex) {
      take(w, lines);
      return true;
    }
    const data = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    const outcome = await w.regex.search([{ data, firstLine: 0, lineCount: lines.length }], 'lines', lines.length);
    w.regex.close();
    if (outcome.kind === 'done') {
      take(w, (outcome.results[0]?.lines ?? []).map((l) => lines[l.no] ?? l.text));
      return true;
    }
    if (outcome.kind === 'aborted') return false;
    const why = outcome.kind === 'timeout'
      ? `the pattern /${w.info.pattern ?? ''}/ took longer than ${limits.regexTimeoutMs / 1000} s on the shell's output (catastrophic backtracking?)`
      : `the pattern failed: ${outcome.message}`;
    finish(w, 'stopped', why);
    return false;
  };

  const flush = (w: Watch, then: () => void): void => {
    w.work = w.work.then(async () => {
      if (w.over) return;
      if (await filter(w)) then();
    });
  };

  const onLines = (w: Watch) => (text: string): void => {
    if (w.over) return;
    const lines = text.replace(/\n$/, '').split('\n').filter((l) => l.trim() !== '');
    const room = MAX_RAW_LINES - w.raw.length;
    if (lines.length > room) drop(w, lines.length - Math.max(0, room));
    w.raw.push(...lines.slice(0, Math.max(0, room)));
    if (w.batchTimer || w.raw.length === 0) return;
    w.batchTimer = clock.setTimeout(() => {
      delete w.batchTimer;
      flush(w, () => {
        if (!flooded(w)) tryDeliver(w);
      });
    }, limits.batchMs);
  };

  /**
   * Ends a watch: no more deliveries; `ended` and `stopped` are told to the model once. An owned
   * command stops with its watch, unless a new watch takes it over (keepCommand).
   */
  const finish = (w: Watch, status: 'ended' | 'stopped', reason: string, more: { cause?: WatchCause; exitCode?: number; keepCommand?: boolean } = {}): void => {
    if (w.over) return;
    w.over = true;
    w.unfollow();
    for (const t of [w.batchTimer, w.rateTimer, w.expiryTimer]) if (t) clock.clearTimeout(t);
    w.controller.abort();
    watches.delete(w.info.shellId);
    const stopsCommand = status === 'stopped' && w.info.owned === true && more.keepCommand !== true;
    if (stopsCommand) void opts.shells.kill(w.info.shellId);
    const lines = w.ready.splice(0);
    const dropped = w.droppedSince;
    const told = stopsCommand ? `${reason}; its command was stopped` : reason;
    event(w, status, {
      reason: told,
      ...(lines.length > 0 ? { lines } : {}),
      ...(dropped > 0 ? { dropped } : {}),
      ...(more.exitCode !== undefined ? { exit_code: more.exitCode } : {}),
      ...(more.cause ? { cause: more.cause } : {}),
    });
    const note = { ...w.info, owned: w.info.owned === true && more.keepCommand !== true };
    queue(endNote(note, { status, reason, lines, dropped, suppressed: w.flood?.suppressed ?? 0, floodMs: limits.floodMs, ...(more.cause ? { cause: more.cause } : {}) }));
  };

  /** Ends a watch once the lines printed so far went through its pattern (the last lines go with the note, whatever the rate limit). */
  const finishAfterFilter = (w: Watch, status: 'ended' | 'stopped', reason: string, more: { cause?: WatchCause; exitCode?: number } = {}): void => {
    w.work = w.work.then(async () => {
      if (w.over) return;
      if (!(await filter(w))) return;
      finish(w, status, reason, more);
    });
  };

  const onEnd = (w: Watch) => (info: ShellInfo): void => {
    for (const s of w.splitters) s.flush();
    finishAfterFilter(w, 'ended', `${info.status === 'killed' ? 'was stopped' : info.status} with ${endText(info)}`, info.exitCode !== undefined ? { exitCode: info.exitCode } : {});
  };

  /** An owned command's timeout: the watch and the command stop, the lines so far delivered with the note. */
  const expire = (w: Watch, timeoutMs: number): void => {
    delete w.expiryTimer;
    finishAfterFilter(w, 'stopped', `its timeout of ${duration(timeoutMs)} expired`, { cause: 'timeout' });
  };

  return {
    start(shellId, o) {
      const shell = opts.shells.list().find((s) => s.id === shellId);
      if (!shell) return { ok: false, error: `no background shell with id "${shellId}"` };
      if (shell.status !== 'running') return { ok: false, error: `the background shell ${shellId} has already ended (${shell.status}${shell.exitCode !== undefined ? `, exit code ${shell.exitCode}` : ''}): read its output with bash_output` };
      const old = watches.get(shellId);
      if (old) finish(old, 'stopped', 'replaced by a new watch', { keepCommand: true });
      // A new watch of a command an old watch started owns it as the old one did, deadline included.
      const now = clock.now();
      const timeoutMs = o.owned ? o.owned.timeoutMs : old?.info.timeoutMs;
      const expiresAt = o.owned ? (timeoutMs !== undefined ? now + timeoutMs : undefined) : old?.info.expiresAt;
      const owned = o.owned !== undefined || old?.info.owned === true;
      const description = o.description ?? (o.owned === undefined ? old?.info.description : undefined);
      const info: WatchInfo = {
        shellId,
        command: shell.command,
        delivered: 0,
        dropped: 0,
        ...(o.pattern !== undefined ? { pattern: o.pattern } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(owned ? { owned } : {}),
        ...(owned && timeoutMs !== undefined && expiresAt !== undefined ? { timeoutMs, expiresAt } : {}),
      };
      const controller = new AbortController();
      const w: Watch = {
        info,
        unfollow: () => undefined,
        splitters: [new ChunkLines((t) => onLines(w)(t)), new ChunkLines((t) => onLines(w)(t))],
        raw: [],
        ready: [],
        droppedSince: 0,
        sent: [],
        batchDrops: 0,
        work: Promise.resolve(),
        controller,
        over: false,
        ...(o.pattern !== undefined ? { regex: new RegexSearch(o.pattern, '', { timeoutMs: limits.regexTimeoutMs, signal: controller.signal, maxChars: limits.maxLineChars }) } : {}),
      };
      const unfollow = opts.shells.follow(shellId, { data: (chunk, stream) => w.splitters[stream].push(chunk), end: onEnd(w), tellsEnd: true });
      if (!unfollow) return { ok: false, error: `the background shell ${shellId} has already ended: read its output with bash_output` };
      w.unfollow = unfollow;
      watches.set(shellId, w);
      if (info.timeoutMs !== undefined && info.expiresAt !== undefined) {
        const full = info.timeoutMs;
        w.expiryTimer = clock.setTimeout(() => expire(w, full), Math.max(1, info.expiresAt - now));
      }
      event(w, 'watching', description !== undefined ? { reason: description } : {});
      return { ok: true, info: { ...info }, replaced: old !== undefined };
    },
    stop(shellId, reason) {
      const w = watches.get(shellId);
      if (!w) return false;
      finish(w, 'stopped', reason);
      return true;
    },
    list: () => [...watches.values()].map((w) => ({ ...w.info })),
    drainNotes: () => notes.splice(0),
    get pending() {
      return notes.length;
    },
    onDelivery(listener) {
      listeners.push(listener);
    },
    stopAll() {
      // cairn is ending: nothing is told any more.
      for (const w of watches.values()) {
        w.over = true;
        w.unfollow();
        for (const t of [w.batchTimer, w.rateTimer, w.expiryTimer]) if (t) clock.clearTimeout(t);
        w.controller.abort();
      }
      watches.clear();
    },
  };
}
