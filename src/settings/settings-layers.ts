// Every settings file cairn reads, in one place: Claude Code's three files and cairn's own three.
// This module only finds and parses them; what each key means is decided by the module that owns
// the key (permissions, sandbox, hooks, env, MCP...). Lowest precedence first, so a reader that
// folds the list left to right gets "the more specific file wins" for scalars.
import os from 'node:os';
import path from 'node:path';
import { FileReadError, readTextFile } from '../util/read-text-file.js';

/** user: the person's home; project: committed with the repository; local: this machine's copy of the project's. */
export type SettingsScope = 'user' | 'project' | 'local';
/** Whose file it is: Claude Code's (`.claude/`) or cairn's own (`.cairn/`, `$CAIRN_HOME`). */
export type SettingsFamily = 'claude' | 'cairn';

export interface SettingsFile {
  file: string;
  scope: SettingsScope;
  family: SettingsFamily;
  /** The command line's layer (--settings, --add-dir, --max-budget-usd): the user's own, trusted as user settings; its relative paths are the launch folder's. */
  commandLine?: true;
}

export interface SettingsLayer extends SettingsFile {
  /** The file's top-level JSON object. */
  data: Record<string, unknown>;
  /** The file as written, for the lines its rules stand on (absent for layers built in memory). */
  text?: string;
}

/** A settings file that exists but cannot be used; the message names the file and the reason. */
export class SettingsFileError extends Error {
  override name = 'SettingsFileError';
}

export interface SettingsLocations {
  workspace: string;
  cairnHome: string;
  /** Claude Code's user folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
  claudeHome: string;
}

/** `$CLAUDE_CONFIG_DIR` or `~/.claude`, as Claude Code finds it. */
export function claudeHomeFrom(env: NodeJS.ProcessEnv, home = os.homedir()): string {
  return env['CLAUDE_CONFIG_DIR'] || path.join(env['HOME'] || home, '.claude');
}

/**
 * The six files, lowest precedence first: at each level Claude Code's file, then cairn's (cairn's
 * wins at the same level); levels user < project < local, as in Claude Code.
 */
export function settingsFiles(at: SettingsLocations): SettingsFile[] {
  return [
    { file: path.join(at.claudeHome, 'settings.json'), scope: 'user', family: 'claude' },
    { file: path.join(at.cairnHome, 'settings.json'), scope: 'user', family: 'cairn' },
    { file: path.join(at.workspace, '.claude', 'settings.json'), scope: 'project', family: 'claude' },
    { file: path.join(at.workspace, '.cairn', 'settings.json'), scope: 'project', family: 'cairn' },
    { file: path.join(at.workspace, '.claude', 'settings.local.json'), scope: 'local', family: 'claude' },
    { file: path.join(at.workspace, '.cairn', 'settings.local.json'), scope: 'local', family: 'cairn' },
  ];
}

/**
 * The raw JSON of one settings file, or undefined when there is none. A FIFO or device is never
 * opened (it would hang start-up); a BOM is dropped. Throws SettingsFileError naming the file.
 */
export async function readSettingsJson(file: string): Promise<unknown> {
  return (await readSettingsJsonAndText(file))?.data;
}

/** readSettingsJson's value with the text it was parsed from; undefined when there is no file. */
export async function readSettingsJsonAndText(file: string): Promise<{ data: unknown; text: string } | undefined> {
  let text: string | undefined;
  try {
    text = await readTextFile(file);
  } catch (err) {
    if (err instanceof FileReadError) throw new SettingsFileError(err.message, { cause: err });
    throw err;
  }
  if (text === undefined) return undefined;
  try {
    return { data: JSON.parse(text) as unknown, text };
  } catch (err) {
    throw new SettingsFileError(`${file}: invalid JSON: ${(err as Error).message}`);
  }
}

// The command line's layer: one per process, set by the composition root before anything reads the
// settings (every reader goes through readSettingsLayers, so each sees it in the same place).
let commandLineLayer: SettingsLayer | undefined;

/**
 * `cairn --settings FILE|JSON` (and the flags that are settings: --add-dir, --max-budget-usd): the
 * most specific layer. It is the user's own command line, so it counts as user settings (trusted,
 * never withheld). Throws SettingsFileError naming the flag for a file or JSON it cannot use.
 */
export async function setCommandLineSettings(opts: { settings?: string; cwd: string; extra?: Record<string, unknown> }): Promise<void> {
  let data: Record<string, unknown> = {};
  let file = 'the command line';
  if (opts.settings !== undefined) {
    const text = opts.settings.trim();
    const inline = text.startsWith('{');
    file = inline ? '--settings (JSON)' : `--settings ${path.resolve(opts.cwd, text)}`;
    let value: unknown;
    if (inline) {
      try {
        value = JSON.parse(text);
      } catch (err) {
        throw new SettingsFileError(`--settings: invalid JSON: ${(err as Error).message}`);
      }
    } else {
      value = await readSettingsJson(path.resolve(opts.cwd, text));
      if (value === undefined) throw new SettingsFileError(`--settings: ${path.resolve(opts.cwd, text)}: no such file`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SettingsFileError(`${file}: expected a JSON object at the top level`);
    data = value as Record<string, unknown>;
  }
  for (const [key, value] of Object.entries(opts.extra ?? {})) {
    const was = data[key];
    // An object key (permissions) is merged one level deep: --add-dir adds to the file's directories.
    if (isPlainObject(was) && isPlainObject(value)) data[key] = mergeLists(was, value);
    else data[key] = value;
  }
  commandLineLayer = Object.keys(data).length > 0 ? { file, scope: 'user', family: 'cairn', commandLine: true, data } : undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function mergeLists(base: Record<string, unknown>, added: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(added)) {
    const was = out[key];
    out[key] = Array.isArray(was) && Array.isArray(value) ? [...(was as unknown[]), ...(value as unknown[])] : value;
  }
  return out;
}

export interface SettingsLayers {
  /** The files that exist and parse to an object, lowest precedence first. */
  layers: SettingsLayer[];
  /** Files passed over, each naming the file and why (not a regular file; invalid JSON in one of Claude Code's files). */
  warnings: string[];
}

/**
 * Reads every settings file that exists. A path that is not a regular file is passed over with a
 * warning. A cairn file that cannot be parsed stops start-up (its deny rules may matter, and the
 * user wrote it for cairn); so does one of Claude Code's, for the same reason.
 */
export async function readSettingsLayers(at: SettingsLocations): Promise<SettingsLayers> {
  const out: SettingsLayers = { layers: [], warnings: [] };
  for (const where of settingsFiles(at)) {
    let data: unknown;
    let text: string | undefined;
    try {
      ({ data, text } = (await readSettingsJsonAndText(where.file)) ?? { data: undefined, text: undefined });
    } catch (err) {
      const cause = err instanceof SettingsFileError ? err.cause : undefined;
      if (!(cause instanceof FileReadError && cause.notAFile)) throw err;
      out.warnings.push(`${cause.message}; started without these settings`);
      continue;
    }
    if (data === undefined) continue;
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new SettingsFileError(`${where.file}: expected a JSON object at the top level`);
    }
    out.layers.push({ ...where, data: data as Record<string, unknown>, ...(text !== undefined ? { text } : {}) });
  }
  if (commandLineLayer) out.layers.push(commandLineLayer);
  return out;
}
