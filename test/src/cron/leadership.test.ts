import { describe, expect, it } from 'vitest';
import { createLeadership } from '../../../src/cron/leadership.js';
import type { CronLock, LockState } from '../../../src/cron/lock.js';

function lock(states: (LockState | Error)[]): CronLock & { released: number } {
  const out = {
    path: '/home/locks/cron-x.lock',
    released: 0,
    tryAcquire(): LockState {
      const next = states.shift() ?? { leader: false, holderPid: 1 };
      if (next instanceof Error) throw next;
      return next;
    },
    release() {
      out.released++;
    },
  };
  return out;
}

describe('cron leadership', () => {
  it('poll says when this process has just become the leader, and who holds the lock otherwise', () => {
    const l = lock([{ leader: false, holderPid: 42 }, { leader: true }, { leader: true }]);
    const lead = createLeadership(l, () => undefined);
    expect(lead.poll()).toBe(false);
    expect(lead.holderPid).toBe(42);
    expect(lead.poll()).toBe(true);
    expect(lead.isLeader).toBe(true);
    expect(lead.poll()).toBe(false);
    lead.release();
    expect(l.released).toBe(1);
    expect(lead.isLeader).toBe(false);
  });

  it('a lock that cannot be used is reported naming it, and this process does not lead', () => {
    const notes: string[] = [];
    const lead = createLeadership(lock([{ leader: true }, new Error('EACCES')]), (_level, m) => notes.push(m));
    lead.poll();
    lead.poll();
    expect(lead.isLeader).toBe(false);
    expect(notes).toEqual(['Scheduled tasks: cannot use /home/locks/cron-x.lock: EACCES']);
  });
});
