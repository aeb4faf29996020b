import fs from 'node:fs/promises';
import path from 'node:path';
import { parseToolList, stringField } from '../skills/skill-parse.js';
import type { Place } from '../skills/skill-places.js';
import { errorMessage } from '../util/error-message.js';
import { parseLenientFrontmatter } from '../util/lenient-frontmatter.js';
import { FileReadError, readTextFile } from '../util/read-text-file.js';
import { argumentNames } from './command-template.js';
import type { CommandProblem, CustomCommand } from './custom-command.js';

const MAX_COMMAND_BYTES = 256 * 1024;
const MAX_DEPTH = 4;
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export interface CommandCatalog {
  commands: CustomCommand[];
  /** Commands a later place replaced, by name. */
  replaced: ReadonlyMap<string, CustomCommand[]>;
  problems: CommandProblem[];
}

/** Every `*.md` under the places (subfolders are namespaces), lowest precedence first; bad files reported and skipped. */
export async function discoverCommands(places: readonly Place[]): Promise<CommandCatalog> {
  const byName = new Map<string, CustomCommand>();
  const replaced = new Map<string, CustomCommand[]>();
  const problems: CommandProblem[] = [];
  for (const place of places) {
    const files: string[] = [];
    await collect(place.dir, 0, files, problems);
    for (const file of files.sort()) {
      const result = await readCommand(place, file);
      if ('problem' in result) {
        problems.push(result.problem);
        continue;
      }
      const earlier = byName.get(result.command.name);
      if (earlier) replaced.set(result.command.name, [...(replaced.get(result.command.name) ?? []), earlier]);
      byName.set(result.command.name, result.command);
    }
  }
  return { commands: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), replaced, problems };
}

async function collect(dir: string, depth: number, out: string[], problems: CommandProblem[]): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // A plugin's manifest may name one command file rather than a folder.
    if (code === 'ENOTDIR' && depth === 0 && dir.endsWith('.md')) out.push(dir);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') problems.push({ file: dir, message: `cannot list the folder: ${code ?? errorMessage(error)}` });
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && depth < MAX_DEPTH) await collect(full, depth + 1, out, problems);
    else if (entry.name.endsWith('.md')) out.push(full);
  }
}

/** `git/commit.md` under the place is `git:commit`; names are lowercase, as the palette matches them. */
export function commandName(placeDir: string, file: string): string | undefined {
  const relative = file === placeDir ? path.basename(file) : path.relative(placeDir, file);
  const segments = relative.replace(/\.md$/, '').split(path.sep);
  if (!segments.every((s) => SEGMENT.test(s))) return undefined;
  return segments.join(':').toLowerCase();
}

async function readCommand(place: Place, file: string): Promise<{ command: CustomCommand } | { problem: CommandProblem }> {
  const bare = commandName(place.dir, file);
  const name = bare !== undefined && place.namespace ? `${place.namespace.toLowerCase()}:${bare}` : bare;
  if (name === undefined) return { problem: { file, message: 'the file and folder names of a command take letters, digits, ".", "_" and "-" only' } };
  let text: string | undefined;
  try {
    text = await readTextFile(file, { maxBytes: MAX_COMMAND_BYTES });
  } catch (error) {
    return { problem: { file, message: error instanceof FileReadError ? error.problem : errorMessage(error) } };
  }
  if (text === undefined) return { problem: { file, message: 'cannot read: it vanished or is a broken symbolic link' } };
  return parseCommand(place, file, name, text);
}

/**
 * A command file as Claude Code reads it: frontmatter YAML that strict YAML rejects is read
 * leniently (an unquoted `: `, `allowed-tools: *`), and when even that fails the body runs with no
 * fields; every rule bent is a warning. Only a file that cannot be read is refused.
 */
export function parseCommand(place: Place, file: string, name: string, text: string): { command: CustomCommand } {
  const fm = parseLenientFrontmatter(text);
  const warnings = 'problem' in fm ? [`${fm.problem}; its fields are ignored and the text after them is the prompt, as in Claude Code`] : [...fm.warnings];
  const data = ('problem' in fm ? undefined : fm.data) ?? {};
  const description = stringField(data, 'description', warnings);
  const hint = stringField(data, 'argument-hint', warnings);
  const model = stringField(data, 'model', warnings);
  const tools = parseToolList(data['allowed-tools']);
  warnings.push(...tools.warnings);
  const names = argumentNames(data['arguments']);
  const body = (fm.body ?? text).trim();
  // Claude Code's default: the first line of the body.
  const firstLine = body.split('\n').find((l) => l.trim() !== '')?.replace(/^#+\s*/, '').trim() ?? '';
  return {
    command: {
      name,
      description: description?.trim() || firstLine.slice(0, 120) || `/${name}`,
      ...(hint !== undefined ? { argumentHint: hint } : {}),
      allowedTools: tools.rules,
      ...(model !== undefined ? { model } : {}),
      ...(names.length > 0 ? { argumentNames: names } : {}),
      body,
      file,
      source: place.source,
      ...(warnings.length > 0 ? { warnings } : {}),
    },
  };
}
