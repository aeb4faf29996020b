import { describe, expect, it } from 'vitest';
import { createDurableFile, CronError } from '../../../src/cron/durable-file.js';
import { CronStoreError, type CronStore } from '../../../src/cron/store.js';
import type { CronTask } from '../../../src/cron/types.js';

// A store in memory whose file can be made unreadable.
function memoryStore(initial: CronTask[] = []) {
  let tasks = initial;
  let broken: string | undefined;
  let version = 0;
  const store: CronStore = {
    path: '/ws/.cairn/scheduled_tasks.json',
    load() {
      if (broken) throw new CronStoreError(broken);
      return [...tasks];
    },
    save(next) {
      tasks = [...next];
      version++;
    },
    signature: () => `v${version}${broken ? 'x' : ''}`,
  };
  return { store, break: (why: string) => (broken = why), fix: () => (broken = undefined), saved: () => tasks, touch: () => version++ };
}

const task: CronTask = { id: 'a1', cron: '* * * * *', prompt: 'p', recurring: true, durable: true, autoRun: false, createdAt: 0 };

describe('the shared durable file as the scheduler sees it', () => {
  it('an unreadable file is reported once per problem, and never overwritten', () => {
    const notes: string[] = [];
    const mem = memoryStore([task]);
    const file = createDurableFile(mem.store, (_level, m) => notes.push(m));
    mem.break('/ws/.cairn/scheduled_tasks.json is not valid JSON');
    expect(file.load()).toBeUndefined();
    expect(file.load()).toBeUndefined();
    expect(notes).toEqual(['Scheduled tasks: /ws/.cairn/scheduled_tasks.json is not valid JSON']);
    expect(file.error).toBe('/ws/.cairn/scheduled_tasks.json is not valid JSON');
    expect(() => file.mutate(() => [])).toThrow(CronError);
    expect(() => file.mutate(() => [])).toThrow('(not overwriting it)');
    expect(mem.saved()).toEqual([task]);
    mem.fix();
    expect(file.load()).toEqual([task]);
    expect(file.error).toBeUndefined();
  });

  it('changed() tells a write by another process from its own', () => {
    const mem = memoryStore();
    const file = createDurableFile(mem.store, () => undefined);
    file.load();
    expect(file.changed()).toBe(false);
    file.mutate((tasks) => [...tasks, task]);
    expect(file.changed()).toBe(false);
    mem.touch();
    expect(file.changed()).toBe(true);
  });
});
