import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { AgentEvent, EventOf } from '../../src/events.js';
import { createShellManager, type ShellManager } from '../../src/shells/shell-manager.js';
import { createShellWatches, type ShellWatches, type WatchLimits } from '../../src/shells/shell-watches.js';

/** A temp folder, a real shell manager and (after watch()) its watches, fresh for each test; everything started is killed after it. */
export interface ShellWatchRig {
  readonly dir: string;
  readonly shells: ShellManager;
  /** The watches made by the last watch() call. */
  readonly watches: ShellWatches;
  /** Every event the shells and watches emitted in this test. */
  readonly events: AgentEvent[];
  /** New watches on the shells, batching for 100 ms unless `limits` says otherwise. */
  watch(limits?: Partial<WatchLimits>): ShellWatches;
  watchEvents(): EventOf<'shell_watch'>[];
}

/** Registers the before/after hooks of a test file whose tests watch real shells. */
export function shellWatchRig(prefix: string): ShellWatchRig {
  let dir = '';
  let shells: ShellManager | undefined;
  let watches: ShellWatches | undefined;
  const events: AgentEvent[] = [];
  beforeEach(async () => {
    dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
    events.length = 0;
    shells = createShellManager({ onEvent: (e) => events.push(e) });
    watches = undefined;
  });
  afterEach(async () => {
    watches?.stopAll();
    shells?.killAll();
    await fs.rm(dir, { recursive: true, force: true });
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not set up: use the rig inside a test (after watch() for watches)`);
    return value;
  };
  return {
    get dir() {
      return dir;
    },
    get shells() {
      return need(shells, 'the shell manager');
    },
    get watches() {
      return need(watches, 'the watches');
    },
    events,
    watch(limits = {}) {
      watches = createShellWatches({ shells: need(shells, 'the shell manager'), emit: (e) => events.push(e), limits: { batchMs: 100, ...limits } });
      return watches;
    },
    watchEvents: () => events.filter((e): e is EventOf<'shell_watch'> => e.type === 'shell_watch'),
  };
}
