// Names the user gives sessions (/save NAME; a later /rename NAME is the same call): one small JSON
// file per workspace beside its session files, { "<name>": "<session id>" }. Kept apart from the
// session files so naming one never rewrites it, and `--resume NAME` finds it without reading any.
import fs from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { projectDir } from './session-paths.js';

export const NAMES_FILE = 'session-names.json';
export const MAX_SESSION_NAME_CHARS = 64;
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}._-]*$/u;

export function sessionNamesFile(cairnHome: string, cwd: string): string {
  return path.join(projectDir(cairnHome, cwd), NAMES_FILE);
}

/** Why a name cannot be used, or undefined when it can. */
export function sessionNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'a session name cannot be empty';
  if (name.length > MAX_SESSION_NAME_CHARS) return `"${name.slice(0, 20)}…" is ${name.length} characters; a session name has at most ${MAX_SESSION_NAME_CHARS}`;
  if (!NAME.test(name)) return `"${name}" is not a session name: use letters, digits, ".", "_" and "-" (no spaces), starting with a letter or digit`;
  return undefined;
}

/** The workspace's names, name -> session id. A missing file is no names; a broken one says so with its path. */
export async function readSessionNames(cairnHome: string, cwd: string): Promise<Map<string, string>> {
  const file = sessionNamesFile(cairnHome, cwd);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new Error(`${file}: cannot read: ${errorMessage(error)}`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON: ${errorMessage(error)}`, { cause: error });
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new Error(`${file}: expected an object of "name": "session id"`);
  const names = new Map<string, string>();
  for (const [name, id] of Object.entries(json)) if (typeof id === 'string') names.set(name, id);
  return names;
}

/** The name a session has, if any. */
export function nameOf(names: ReadonlyMap<string, string>, id: string): string | undefined {
  for (const [name, of] of names) if (of === id) return name;
  return undefined;
}

/**
 * Names a session: its earlier name, if any, is dropped (one name a session). Resolves to why not:
 * a bad name, or one another session of this workspace has.
 */
export async function nameSession(cairnHome: string, cwd: string, id: string, name: string): Promise<{ name: string; previous?: string } | { problem: string }> {
  const wanted = name.trim();
  const problem = sessionNameProblem(wanted);
  if (problem) return { problem };
  let names: Map<string, string>;
  try {
    names = await readSessionNames(cairnHome, cwd);
  } catch (error) {
    return { problem: errorMessage(error) };
  }
  const holder = names.get(wanted);
  if (holder !== undefined && holder !== id) return { problem: `the name "${wanted}" is taken by session ${holder.slice(0, 8)}; choose another` };
  const previous = nameOf(names, id);
  if (previous !== undefined) names.delete(previous);
  names.set(wanted, id);
  const file = sessionNamesFile(cairnHome, cwd);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written whole then renamed: a crash leaves the old names or the new ones, never half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, `${JSON.stringify(Object.fromEntries(names), null, 2)}\n`);
    await fs.rename(tmp, file);
  } catch (error) {
    return { problem: `cannot write ${file}: ${errorMessage(error)}` };
  }
  return { name: wanted, ...(previous !== undefined && previous !== wanted ? { previous } : {}) };
}
