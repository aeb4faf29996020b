import { errorMessage } from '../util/error-message.js';
import type { CronNotify } from './durable-file.js';
import type { CronLock } from './lock.js';

/** Whether this cairn fires the workspace's durable tasks: it does while it holds the lock. */
export interface Leadership {
  readonly isLeader: boolean;
  /** The lock holder's PID when another cairn leads. */
  readonly holderPid: number | undefined;
  /** Tries to take (or keep) the lock. True when this process just became the leader. */
  poll(): boolean;
  /** Gives the lock up, if held. */
  release(): void;
}

export function createLeadership(lock: CronLock, notify: CronNotify): Leadership {
  let leader = false;
  let holderPid: number | undefined;
  return {
    get isLeader() {
      return leader;
    },
    get holderPid() {
      return holderPid;
    },
    poll() {
      const wasLeader = leader;
      try {
        const state = lock.tryAcquire();
        leader = state.leader;
        holderPid = state.leader ? undefined : state.holderPid;
      } catch (err) {
        leader = false;
        notify('error', `Scheduled tasks: cannot use ${lock.path}: ${errorMessage(err)}`);
      }
      return leader && !wasLeader;
    },
    release() {
      if (leader) {
        try {
          lock.release();
        } catch (err) {
          notify('warning', `Scheduled tasks: could not remove ${lock.path}: ${errorMessage(err)}`);
        }
      }
      leader = false;
    },
  };
}
