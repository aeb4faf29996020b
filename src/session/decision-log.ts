// The session's permission decision log: every `permission_decision` event (a subagent's too,
// with its agent's name) appended as a JSON line to permission-decisions.jsonl in the session's
// folder, for /permissions and for anyone auditing what ran and why.
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { AgentEventSchema, type AgentEvent, type EventOf } from '../events.js';
import { errorMessage } from '../util/error-message.js';
import { projectDir } from './session-paths.js';

export type LoggedDecision = EventOf<'permission_decision'> & { at: string };

const KEPT_IN_MEMORY = 500;

export interface DecisionLog {
  /** The file it appends to; undefined when the session is not saved (decisions are kept in memory only). */
  readonly file: string | undefined;
  /** Listens to the session's events. */
  record(event: AgentEvent): void;
  /** The decisions so far, oldest first (the file's, when there is one: a resumed session's earlier ones included). */
  entries(): Promise<LoggedDecision[]>;
}

export function decisionLogFile(cairnHome: string, cwd: string, sessionId: string): string {
  return path.join(projectDir(cairnHome, cwd), sessionId, 'permission-decisions.jsonl');
}

/** The decision in an event, a subagent's unwrapped (named by its agent type when it gave none). */
function decisionIn(event: AgentEvent): EventOf<'permission_decision'> | undefined {
  if (event.type === 'permission_decision') return event;
  if (event.type !== 'subagent') return undefined;
  const inner = decisionIn(event.event);
  return inner && { ...inner, agent: inner.agent ?? event.agent_type };
}

export function createDecisionLog(opts: { file?: string; now: () => Date; onProblem: (message: string) => void }): DecisionLog {
  const memory: LoggedDecision[] = [];
  let chain: Promise<void> = opts.file ? fs.mkdir(path.dirname(opts.file), { recursive: true }).then(() => undefined) : Promise.resolve();
  let reported = false;
  return {
    file: opts.file,
    record(event) {
      const decision = decisionIn(event);
      if (!decision) return;
      const entry: LoggedDecision = { at: opts.now().toISOString(), ...decision };
      memory.push(entry);
      if (memory.length > KEPT_IN_MEMORY) memory.shift();
      const file = opts.file;
      if (!file) return;
      chain = chain
        .then(() => fs.appendFile(file, `${JSON.stringify(entry)}\n`))
        .catch((error: unknown) => {
          if (!reported) opts.onProblem(`Could not append to the decision log ${file}: ${errorMessage(error)}`);
          reported = true;
        });
    },
    async entries() {
      if (!opts.file) return [...memory];
      await chain;
      return readDecisionLog(opts.file);
    },
  };
}

const LoggedLine = z.object({ at: z.string() }).loose();

/** The decisions in a log file, oldest first; lines that are not decisions are passed over. No file: none. */
export async function readDecisionLog(file: string): Promise<LoggedDecision[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return [];
  }
  const out: LoggedDecision[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const raw: unknown = JSON.parse(line);
      const at = LoggedLine.parse(raw).at;
      const event = AgentEventSchema.parse(raw);
      if (event.type === 'permission_decision') out.push({ ...event, at });
    } catch {
      continue; // a torn last line, or one written by a newer version
    }
  }
  return out;
}
