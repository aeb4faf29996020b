import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { prepareCairnDir } from '../util/cairn-dir.js';

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
 * arrived since the last read of that inbox (a cursor kept beside it), so nothing is lost
 * across restarts and nothing is delivered twice.
 */
export function createMessageBus(cwd: string, now: () => Date = () => new Date()) {
  const dir = path.join(cwd, '.cairn', 'team');
  const inbox = (name: string) => path.join(dir, `${name}.jsonl`);
  const cursor = (name: string) => path.join(dir, `${name}.read`);
  const ready = async (): Promise<void> => {
    await prepareCairnDir(path.dirname(dir));
    await fs.mkdir(dir, { recursive: true });
  };
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
        await fs.appendFile(inbox(to), `${JSON.stringify(message)}\n`);
        for (const l of listeners) l(message);
        return message;
      });
    },
    /** Messages since the last read; marks them read. */
    read(name: string): Promise<TeamMessage[]> {
      return serial(async () => {
        const text = await fs.readFile(inbox(name), 'utf8').catch(() => '');
        const done = Number(await fs.readFile(cursor(name), 'utf8').catch(() => '0')) || 0;
        const lines = text.split('\n').filter(Boolean);
        const fresh: TeamMessage[] = [];
        for (const line of lines.slice(done)) {
          try {
            fresh.push(JSON.parse(line) as TeamMessage);
          } catch {
            // a torn line from a crash: skipped, the cursor still moves past it
          }
        }
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
