// The user's answers about a project's own MCP servers (its .mcp.json), remembered per project in
// $CAIRN_HOME/mcp-project-servers.json, where no repository can write: a server the user approved
// starts in later sessions without asking, a declined one stays off, and a server that appears
// later (a pull, an edit by the model) is asked about again. As Claude Code's approvals are, but
// kept in cairn's own state rather than a file inside the project.
import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../util/error-message.js';
import { FileReadError, readTextFile } from '../util/read-text-file.js';
import { writeFileAtomically } from '../util/write-atomically.js';

export interface McpProjectChoices {
  approved: readonly string[];
  declined: readonly string[];
}

export const NO_MCP_CHOICES: McpProjectChoices = { approved: [], declined: [] };

const ProjectSchema = z.looseObject({ approved: z.array(z.string()).default([]), declined: z.array(z.string()).default([]) });
const StoreSchema = z.looseObject({ projects: z.record(z.string(), ProjectSchema) });
type Store = z.infer<typeof StoreSchema>;

export function mcpChoicesFile(cairnHome: string): string {
  return path.join(cairnHome, 'mcp-project-servers.json');
}

async function projectKey(workspace: string): Promise<string> {
  try {
    return await fs.realpath(workspace);
  } catch {
    return path.resolve(workspace);
  }
}

/** The store, or undefined when there is none; a store that cannot be used throws, naming the file. */
async function readStore(file: string): Promise<Store | undefined> {
  let text: string | undefined;
  try {
    text = await readTextFile(file);
  } catch (err) {
    throw new Error(err instanceof FileReadError ? err.message : `${file}: ${errorMessage(err)}`, { cause: err });
  }
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: invalid JSON (${errorMessage(err)})`, { cause: err });
  }
  const parsed = StoreSchema.safeParse(data);
  if (!parsed.success) throw new Error(`${file}: expected {"projects": {"<path>": {"approved": [...], "declined": [...]}}}`);
  return parsed.data;
}

/** This project's remembered answers. A store that cannot be used counts as "no answers" and is named in `problems`. */
export async function readMcpChoices(at: { cairnHome: string; workspace: string }): Promise<McpProjectChoices & { problems: string[] }> {
  const file = mcpChoicesFile(at.cairnHome);
  try {
    const store = await readStore(file);
    const mine = store?.projects[await projectKey(at.workspace)];
    return { approved: mine?.approved ?? [], declined: mine?.declined ?? [], problems: [] };
  } catch (err) {
    return { ...NO_MCP_CHOICES, problems: [`${errorMessage(err)}; project MCP servers are asked about again`] };
  }
}

// Two cairns answering at once must not lose one another's entries.
const writeQueues = new Map<string, Promise<unknown>>();

/**
 * Adds answers to this project's: a name moves from one list to the other when the answer changes.
 * A store that cannot be parsed is not overwritten: the error names the file.
 */
export function rememberMcpChoices(at: { cairnHome: string; workspace: string }, answers: McpProjectChoices): Promise<void> {
  const file = mcpChoicesFile(at.cairnHome);
  const next = (writeQueues.get(file) ?? Promise.resolve())
    .catch(() => undefined) // the earlier writer reports its own failure
    .then(async () => {
      const store = (await readStore(file)) ?? { projects: {} };
      const key = await projectKey(at.workspace);
      const before = store.projects[key] ?? { approved: [], declined: [] };
      const approved = [...new Set([...before.approved.filter((n) => !answers.declined.includes(n)), ...answers.approved])];
      const declined = [...new Set([...before.declined.filter((n) => !answers.approved.includes(n)), ...answers.declined])];
      const updated = { ...store, projects: { ...store.projects, [key]: { ...before, approved, declined } } };
      await writeFileAtomically(file, `${JSON.stringify(updated, null, 2)}\n`, { mode: 0o600 });
    });
  writeQueues.set(file, next);
  return next;
}
