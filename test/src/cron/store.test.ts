import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileCronStore, CronStoreError, scheduledTasksPath } from '../../../src/cron/store.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';

const fifos: string[] = [];
afterEach(() => {
  for (const f of fifos.splice(0)) releaseFifo(f);
});

async function storeFile(): Promise<string> {
  const cwd = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-cron-store-'));
  const file = scheduledTasksPath(cwd);
  await fs.mkdir(path.dirname(file), { recursive: true });
  return file;
}

describe('the durable task file', () => {
  it('a FIFO in its place is refused naming it, without blocking the tick', { timeout: 5000 }, async () => {
    const file = await storeFile();
    makeFifo(file);
    fifos.push(file);
    expect(() => createFileCronStore(file).load()).toThrow(CronStoreError);
    expect(() => createFileCronStore(file).load()).toThrow(`cannot read ${file}: is a FIFO (named pipe)`);
  });

  it('a file saved with a BOM loads', async () => {
    const file = await storeFile();
    await fs.writeFile(file, `\ufeff${JSON.stringify({ version: 1, tasks: [{ id: 'a1', cron: '* * * * *', prompt: 'p', recurring: true, createdAt: 1 }] })}`);
    expect(createFileCronStore(file).load()).toEqual([{ id: 'a1', cron: '* * * * *', prompt: 'p', recurring: true, autoRun: false, createdAt: 1, durable: true }]);
  });
});
