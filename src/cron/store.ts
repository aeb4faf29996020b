import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { prepareCairnDirSync } from '../util/cairn-dir.js';
import { errorMessage } from '../util/error-message.js';
import { readTextFileSync } from '../util/read-text-file.js';
import * as z from 'zod';
import type { CronTask } from './types.js';

// Durable tasks on disk, shared by every cairn started in the workspace. Synchronous on purpose:
// the file is small and the scheduler's tick must not interleave with its own writes.

export class CronStoreError extends Error {
  override readonly name = 'CronStoreError';
}

const StoredTaskSchema = z.object({
  id: z.string().min(1),
  cron: z.string().min(1),
  prompt: z.string(),
  recurring: z.boolean(),
  autoRun: z.boolean().default(false),
  createdAt: z.number(),
  lastRunAt: z.number().optional(),
});

const StoreFileSchema = z.object({
  version: z.literal(1),
  tasks: z.array(StoredTaskSchema),
});

export interface CronStore {
  readonly path: string;
  /** The durable tasks; [] when the file does not exist. Throws CronStoreError naming the file when it is unreadable or malformed. */
  load(): CronTask[];
  /** Atomic replace (temp file + rename). */
  save(tasks: readonly CronTask[]): void;
  /** Changes whenever the file does (mtime and size); undefined when it does not exist. */
  signature(): string | undefined;
}

export function scheduledTasksPath(cwd: string): string {
  return path.join(cwd, '.cairn', 'scheduled_tasks.json');
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
  return `${where || '(top level)'}: ${issue.message}`;
}

export function createFileCronStore(file: string): CronStore {
  return {
    path: file,
    load() {
      let text: string | undefined;
      try {
        // Not opened when it is a FIFO or device (the tick would hang); a BOM is dropped.
        text = readTextFileSync(file);
      } catch (err) {
        throw new CronStoreError(`cannot read ${errorMessage(err)}`);
      }
      if (text === undefined) return [];
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        throw new CronStoreError(`${file} is not valid JSON (${(err as Error).message}); fix or delete it`);
      }
      const parsed = StoreFileSchema.safeParse(json);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new CronStoreError(`${file} is malformed: ${first ? describeIssue(first) : 'unknown error'}; fix or delete it`);
      }
      return parsed.data.tasks.map((t) => ({ ...t, durable: true }));
    },
    save(tasks) {
      const body = {
        version: 1,
        tasks: tasks.map((t) => ({
          id: t.id,
          cron: t.cron,
          prompt: t.prompt,
          recurring: t.recurring,
          autoRun: t.autoRun,
          createdAt: t.createdAt,
          ...(t.lastRunAt === undefined ? {} : { lastRunAt: t.lastRunAt }),
        })),
      };
      prepareCairnDirSync(path.dirname(file));
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        fs.writeFileSync(tmp, `${JSON.stringify(body, null, 2)}\n`);
        fs.renameSync(tmp, file);
      } catch (err) {
        fs.rmSync(tmp, { force: true });
        throw new CronStoreError(`cannot write ${file}: ${(err as Error).message}`);
      }
    },
    signature() {
      try {
        const st = fs.statSync(file);
        return `${st.mtimeMs}:${st.size}:${st.ino}`;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // Anything but "absent" still differs from the last signature, so the next load reports it.
        return code === 'ENOENT' ? undefined : `error:${code ?? 'unknown'}`;
      }
    },
  };
}
