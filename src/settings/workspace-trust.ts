// Workspace trust, as Claude Code does it: a folder's own settings files may widen what the agent
// can do (allow rules, extra directories, env, hooks, MCP servers), so those parts wait until the
// user has said they trust the folder. A cloned repository cannot grant itself anything.
// The answer is remembered per folder in $CAIRN_HOME/trusted-folders.json; Claude Code's own
// answer (~/.claude.json `projects[<path>].hasTrustDialogAccepted`) is honoured, never written.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { errorMessage } from '../util/error-message.js';
import { writeFileAtomically } from '../util/write-atomically.js';
import { FileReadError, readTextFile } from '../util/read-text-file.js';

export interface TrustLocations {
  workspace: string;
  cairnHome: string;
  /** Claude Code's user folder (`claudeHomeFrom(env)`); its `.claude.json` is read when given. */
  claudeHome?: string;
  /** Claude Code's `.claude.json`, when it is not where `claudeHome` implies. */
  claudeJson?: string;
  /** The home directory (never remembered as trusted, as in Claude Code); defaults to os.homedir(). */
  homeDir?: string;
}

export interface WorkspaceTrust {
  trusted: boolean;
  /** The folder whose trust covers the workspace (itself or a parent) and the file that says so. */
  by?: { folder: string; file: string };
  /** Trust files that could not be used, each naming the file; they count as "not trusted". */
  problems: string[];
}

/** cairn's memory of trusted folders. */
export function trustStoreFile(cairnHome: string): string {
  return path.join(cairnHome, 'trusted-folders.json');
}

/**
 * Where Claude Code keeps `.claude.json`: `~/.claude.json` beside the default `~/.claude`, or inside
 * `$CLAUDE_CONFIG_DIR` when that moves the folder.
 */
export function claudeJsonFile(claudeHome: string): string {
  return path.basename(claudeHome) === '.claude' ? path.join(path.dirname(claudeHome), '.claude.json') : path.join(claudeHome, '.claude.json');
}

const StoreSchema = z.looseObject({
  folders: z.record(z.string(), z.looseObject({ trustedAt: z.string().optional() })),
});
type Store = z.infer<typeof StoreSchema>;

const ClaudeJsonSchema = z.looseObject({
  projects: z.record(z.string(), z.unknown()).optional(),
});

/** The folder and every parent up to the root: trusting a folder covers what is inside it. */
function selfAndParents(folder: string): string[] {
  const out: string[] = [];
  let current = path.resolve(folder);
  for (;;) {
    out.push(current);
    const parent = path.dirname(current);
    if (parent === current) return out;
    current = parent;
  }
}

async function realOrSame(p: string): Promise<string> {
  try {
    return await fs.realpath(p);
  } catch {
    return path.resolve(p); // a folder that does not exist yet is judged as written
  }
}

/** Reads a JSON file; undefined when absent. Problems are pushed, naming the file. */
async function readJsonFile(file: string, problems: string[]): Promise<unknown> {
  let text: string | undefined;
  try {
    text = await readTextFile(file);
  } catch (err) {
    problems.push(err instanceof FileReadError ? err.message : `${file}: ${errorMessage(err)}`);
    return undefined;
  }
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    problems.push(`${file}: invalid JSON (${errorMessage(err)}); no folder counts as trusted by it`);
    return undefined;
  }
}

async function readStore(file: string, problems: string[]): Promise<Store | undefined> {
  const data = await readJsonFile(file, problems);
  if (data === undefined) return undefined;
  const parsed = StoreSchema.safeParse(data);
  if (!parsed.success) {
    problems.push(`${file}: expected {"folders": {"<path>": {...}}}; no folder counts as trusted by it`);
    return undefined;
  }
  return parsed.data;
}

/**
 * Whether the workspace (or a folder above it) is trusted, by cairn's memory or Claude Code's.
 * A trust file that cannot be read counts as "not trusted" and is named in `problems`.
 */
export async function workspaceTrust(at: TrustLocations): Promise<WorkspaceTrust> {
  const problems: string[] = [];
  const lexical = path.resolve(at.workspace);
  const real = await realOrSame(lexical);
  // The spelling given and the real location both count: Claude Code keys projects by the launch path.
  // The home and root folders are never remembered, so an entry for one (hand-written) covers nothing.
  const homeDir = at.homeDir ?? os.homedir();
  const candidates = [...new Set([...selfAndParents(real), ...selfAndParents(lexical)])].filter((c) => unrememberableReason(c, homeDir) === undefined);

  const storeFile = trustStoreFile(at.cairnHome);
  const store = await readStore(storeFile, problems);
  if (store) {
    const folder = candidates.find((c) => store.folders[c] !== undefined);
    if (folder !== undefined) return { trusted: true, by: { folder, file: storeFile }, problems };
  }

  const claudeFile = at.claudeJson ?? (at.claudeHome !== undefined ? claudeJsonFile(at.claudeHome) : undefined);
  if (claudeFile !== undefined) {
    const data = await readJsonFile(claudeFile, problems);
    const parsed = data === undefined ? undefined : ClaudeJsonSchema.safeParse(data);
    if (parsed && !parsed.success) problems.push(`${claudeFile}: "projects" is not an object; its trust answers are not used`);
    const projects = parsed?.success ? (parsed.data.projects ?? {}) : {};
    const folder = candidates.find((c) => {
      const entry = projects[c];
      return typeof entry === 'object' && entry !== null && (entry as Record<string, unknown>)['hasTrustDialogAccepted'] === true;
    });
    if (folder !== undefined) return { trusted: true, by: { folder, file: claudeFile }, problems };
  }
  return { trusted: false, problems };
}

/**
 * Whether the workspace is trusted. Trust files that cannot be used count as "not trusted"; each
 * problem goes to `onProblem`, or, without one, is thrown (never dropped silently).
 */
export async function isWorkspaceTrusted(at: TrustLocations & { onProblem?: (message: string) => void }): Promise<boolean> {
  const result = await workspaceTrust(at);
  if (result.problems.length > 0) {
    if (!at.onProblem) throw new Error(result.problems.join('; '));
    for (const p of result.problems) at.onProblem(p);
  }
  return result.trusted;
}

/** Why a folder's trust cannot be remembered, or undefined when it can. */
export function unrememberableReason(folder: string, homeDir = os.homedir()): string | undefined {
  const resolved = path.resolve(folder);
  if (resolved === path.parse(resolved).root) return 'the root folder covers every folder';
  if (resolved === path.resolve(homeDir)) return 'the home folder covers every project in it';
  return undefined;
}

// Two cairns (or two answers) trusting folders at once must not lose one another's entries.
const writeQueues = new Map<string, Promise<unknown>>();

/**
 * Remembers the workspace as trusted (by its real path). The home and root folders are trusted for
 * this run only, as Claude Code does: `remembered` is false and `reason` says why. A store that
 * cannot be parsed is not overwritten: the error names the file.
 */
export function trustWorkspace(at: { workspace: string; cairnHome: string; homeDir?: string; now?: () => Date }): Promise<{ remembered: boolean; folder: string; reason?: string }> {
  const file = trustStoreFile(at.cairnHome);
  const previous = writeQueues.get(file) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined) // the earlier writer reports its own failure
    .then(async () => {
      const folder = await realOrSame(at.workspace);
      const reason = unrememberableReason(folder, at.homeDir ?? os.homedir());
      if (reason !== undefined) return { remembered: false, folder, reason };
      const problems: string[] = [];
      const store = (await readStore(file, problems)) ?? { folders: {} };
      if (problems.length > 0) throw new Error(`cannot remember the trusted folder: ${problems.join('; ')}`);
      const when = (at.now ?? (() => new Date()))().toISOString();
      const updated = { ...store, folders: { ...store.folders, [folder]: { trustedAt: when } } };
      await writeFileAtomically(file, `${JSON.stringify(updated, null, 2)}\n`, { mode: 0o600 });
      return { remembered: true, folder };
    });
  writeQueues.set(file, next);
  return next;
}
