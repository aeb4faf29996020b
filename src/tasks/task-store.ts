import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { prepareCairnDir } from '../util/cairn-dir.js';
import { errorMessage } from '../util/error-message.js';
import { createProblemReporter, type ReportProblem } from '../util/problem-reporter.js';
import { readTextFile } from '../util/read-text-file.js';

export const TaskSchema = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string(),
  status: z.enum(['pending', 'in_progress', 'completed']),
  owner: z.string().optional(),
  blocked_by: z.array(z.string()),
  created: z.string(),
  updated: z.string(),
});
export type SharedTask = z.infer<typeof TaskSchema>;

export class TaskError extends Error {}

/** One line: id, status, owner, subject and blockers (for task_list and /tasks). */
export function formatTask(t: SharedTask): string {
  const owner = t.owner ? ` @${t.owner}` : '';
  const blocked = t.blocked_by.length ? ` (blocked by ${t.blocked_by.join(', ')})` : '';
  return `${t.id} [${t.status}]${owner} ${t.subject}${blocked}`;
}

const LOCK_STALE_MS = 10_000;

/**
 * Tasks shared by several agents (and processes) as one JSON file each under .cairn/tasks/.
 * Every read-modify-write holds a per-task lock file created with O_EXCL, so two agents can
 * never both claim a task. A task file that cannot be read or parsed is reported naming it
 * (`onProblem`) and left on disk as it is.
 */
export function createTaskStore(cwd: string, now: () => Date = () => new Date(), onProblem?: ReportProblem) {
  const dir = path.join(cwd, '.cairn', 'tasks');
  const file = (id: string) => path.join(dir, `${id}.json`);
  const report = createProblemReporter(onProblem);

  async function read(id: string): Promise<SharedTask> {
    if (!/^[\w-]+$/.test(id)) throw new TaskError(`invalid task id "${id}"`);
    let text: string | undefined;
    try {
      text = await readTextFile(file(id));
    } catch (error) {
      throw new TaskError(errorMessage(error));
    }
    if (text === undefined) throw new TaskError(`no task ${id} (${file(id)})`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      throw new TaskError(`${file(id)}: not valid JSON (${errorMessage(error)})`);
    }
    const parsed = TaskSchema.safeParse(json);
    if (!parsed.success) throw new TaskError(`${file(id)}: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  }

  async function listing(): Promise<{ tasks: SharedTask[]; problems: string[] }> {
    const found = await scan();
    for (const p of found.problems) report(p);
    return found;
  }

  /** Every readable task, oldest first, and a problem naming each task file that is not. */
  async function scan(): Promise<{ tasks: SharedTask[]; problems: string[] }> {
    let names: string[];
    try {
      names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tasks: [], problems: [] };
      throw new TaskError(`cannot list the tasks in ${dir}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
    }
    const problems: string[] = [];
    const tasks: SharedTask[] = [];
    for (const result of await Promise.allSettled(names.map((n) => read(n.slice(0, -5))))) {
      if (result.status === 'fulfilled') tasks.push(result.value);
      else problems.push(`Skipped a task file: ${errorMessage(result.reason)}`);
    }
    return { tasks: tasks.sort((a, b) => a.created.localeCompare(b.created)), problems };
  }

  async function write(task: SharedTask): Promise<void> {
    const tmp = `${file(task.id)}.${process.pid}.${randomUUID().slice(0, 6)}.tmp`;
    await fs.writeFile(tmp, `${JSON.stringify(task, null, 2)}\n`);
    await fs.rename(tmp, file(task.id));
  }

  async function withLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const lock = `${file(id)}.lock`;
    for (let attempt = 0; ; attempt++) {
      try {
        const handle = await fs.open(lock, 'wx');
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const stat = await fs.stat(lock).catch(() => undefined);
        if (stat && Date.now() - stat.mtimeMs > LOCK_STALE_MS) await fs.rm(lock, { force: true });
        if (attempt > 400) throw new TaskError(`task ${id} is locked (${lock})`);
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 10));
      }
    }
    try {
      return await fn();
    } finally {
      await fs.rm(lock, { force: true });
    }
  }

  return {
    dir,
    async create(input: { subject: string; description?: string; blocked_by?: string[] }): Promise<SharedTask> {
      await prepareCairnDir(path.dirname(dir));
      await fs.mkdir(dir, { recursive: true });
      const stamp = now().toISOString();
      const task: SharedTask = {
        id: randomUUID().slice(0, 8),
        subject: input.subject,
        description: input.description ?? '',
        status: 'pending',
        blocked_by: input.blocked_by ?? [],
        created: stamp,
        updated: stamp,
      };
      await write(task);
      return task;
    },
    get: read,
    /** The readable tasks and a line naming each unreadable task file, also reported (once) through onProblem. */
    listing,
    async list(): Promise<SharedTask[]> {
      return (await listing()).tasks;
    },
    scan,
    /**
     * Updates a task. Setting `owner` claims it: refused if someone else owns it, so of two
     * agents claiming at once exactly one wins. A blocked task cannot start.
     */
    async update(id: string, change: { status?: SharedTask['status']; owner?: string | null; subject?: string; description?: string; blocked_by?: string[] }, actor: string): Promise<SharedTask> {
      return withLock(id, async () => {
        const task = await read(id);
        if (change.owner !== undefined && change.owner !== null && task.owner && task.owner !== change.owner) {
          throw new TaskError(`task ${id} is already owned by ${task.owner}`);
        }
        if (change.owner === null && task.owner && task.owner !== actor) throw new TaskError(`task ${id} is owned by ${task.owner}; only they can release it`);
        if (change.status === 'in_progress') {
          const blockers = await Promise.all((change.blocked_by ?? task.blocked_by).map((b) => read(b).catch(() => undefined)));
          const open = blockers.flatMap((b) => (b && b.status !== 'completed' ? [b.id] : []));
          if (open.length > 0) throw new TaskError(`task ${id} is blocked by ${open.join(', ')}`);
        }
        const next: SharedTask = { ...task, updated: now().toISOString() };
        if (change.status) next.status = change.status;
        if (change.subject) next.subject = change.subject;
        if (change.description !== undefined) next.description = change.description;
        if (change.blocked_by) next.blocked_by = change.blocked_by;
        if (change.owner === null) delete next.owner;
        else if (change.owner !== undefined) next.owner = change.owner;
        await write(next);
        return next;
      });
    },
  };
}

export type TaskStore = ReturnType<typeof createTaskStore>;
