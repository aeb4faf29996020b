import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { prepareCairnDir } from '../util/cairn-dir.js';
import { errorMessage } from '../util/error-message.js';
import { createProblemReporter, type ReportProblem } from '../util/problem-reporter.js';
import { readTextFile } from '../util/read-text-file.js';

export interface TeamMessage {
  id: string;
  ts: string;
  from: string;
  to: string;
  text: string;
  /** 'shutdown_request' asks a teammate to stop; it acknowledges with 'shutdown_ack'. */
  kind?: 'message' | 'shutdown_request' | 'shutdown_ack';
}

/**
 * Per-agent inboxes persisted as JSONL under .cairn/team/<name>.jsonl. Reading returns what
 * arrived since the last read of that inbox (a cursor kept beside it, counting complete lines),
 * so nothing is lost across restarts and nothing is delivered twice. An inbox or cursor that
 * cannot be read is reported naming the file, and nothing is delivered from it until it can be:
 * a lost cursor must not re-deliver the whole inbox.
 */
export function createMessageBus(cwd: string, now: () => Date = () => new Date(), onProblem?: ReportProblem) {
  const dir = path.join(cwd, '.cairn', 'team');
  const inbox = (name: string) => path.join(dir, `${name}.jsonl`);
  const cursor = (name: string) => path.join(dir, `${name}.read`);
  const ready = async (): Promise<void> => {
    await prepareCairnDir(path.dirname(dir));
    await fs.mkdir(dir, { recursive: true });
  };
  const report = createProblemReporter(onProblem);
  const listeners = new Set<(m: TeamMessage) => void>();
  let chain = Promise.resolve();

  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn);
    chain = run.then(() => undefined, () => undefined);
    return run;
  };

  return {
    dir,
    subscribe(fn: (m: TeamMessage) => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    send(from: string, to: string, text: string, kind: TeamMessage['kind'] = 'message'): Promise<TeamMessage> {
      if (!/^[\w-]+$/.test(to)) return Promise.reject(new Error(`invalid recipient "${to}": names use letters, digits, - and _`));
      const message: TeamMessage = { id: randomUUID().slice(0, 8), ts: now().toISOString(), from, to, text, kind };
      return serial(async () => {
        await ready();
        // After a write torn by a crash, the message starts a line of its own instead of joining the torn one.
        const separator = (await endsWithNewline(inbox(to))) ? '' : '\n';
        await fs.appendFile(inbox(to), `${separator}${JSON.stringify(message)}\n`);
        for (const l of listeners) l(message);
        return message;
      });
    },
    /** Messages since the last read; marks them read. */
    read(name: string): Promise<TeamMessage[]> {
      return serial(async () => {
        const text = await readOrReport(inbox(name), report);
        const done = await readCursor(cursor(name), report);
        if (text === undefined || done === undefined) return [];
        // A last line without its newline is still being written: left for the next read.
        const lines = text.split('\n').slice(0, -1).filter(Boolean);
        const fresh: TeamMessage[] = [];
        lines.slice(done).forEach((line, i) => {
          try {
            fresh.push(JSON.parse(line) as TeamMessage);
          } catch {
            report(`${inbox(name)}:${done + i + 1}: skipped a message that is not valid JSON`);
          }
        });
        if (lines.length > done) {
          await ready();
          await fs.writeFile(cursor(name), String(lines.length));
        }
        return fresh;
      });
    },
  };
}

export type MessageBus = ReturnType<typeof createMessageBus>;

/** True for an absent or empty file, or one whose last byte is a newline. */
async function endsWithNewline(file: string): Promise<boolean> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(file, 'r');
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  } finally {
    await handle?.close();
  }
}

/** The file's text; '' when absent; undefined (and reported) when it exists but cannot be read. */
async function readOrReport(file: string, report: ReportProblem): Promise<string | undefined> {
  try {
    return (await readTextFile(file)) ?? '';
  } catch (error) {
    report(`Team inbox ${errorMessage(error)}; its messages wait until it can be read`);
    return undefined;
  }
}

/** How many lines of the inbox were delivered; 0 when never read; undefined (reported) when unreadable. */
async function readCursor(file: string, report: ReportProblem): Promise<number | undefined> {
  let text: string | undefined;
  try {
    text = await readTextFile(file);
  } catch (error) {
    report(`Team inbox cursor ${errorMessage(error)}; no messages are delivered from this inbox until it is fixed or deleted (deleting it delivers them all again)`);
    return undefined;
  }
  if (text === undefined) return 0;
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) {
    report(`Team inbox cursor ${file}: expected a count of lines read, found ${JSON.stringify(trimmed.slice(0, 40))}; no messages are delivered from this inbox until it is fixed or deleted (deleting it delivers them all again)`);
    return undefined;
  }
  return Number(trimmed);
}
