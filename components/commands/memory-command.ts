import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { INSTRUCTION_SIZE_WARNING, type InstructionFile } from '../../src/context/instruction-files.js';
import type { SystemPromptSource } from '../../src/context/system-prompt-source.js';
import { errorMessage } from '../../src/util/error-message.js';
import { episodicDir, listEpisodicNotes, type EpisodicNote } from '../../src/context/episodic-notes.js';
import { personaKindOf, personaPaths } from '../../src/context/persona-files.js';
import type { AppContext, SlashCommand } from '../actions/app-context.js';

export interface MemoryCommandDeps {
  /** The runtime's instruction files and the problems met reading them; absent: no runtime (some tests). */
  instructions?: Pick<SystemPromptSource, 'loadedFiles' | 'problems' | 'bare'>;
  cwd: string;
  /** `~/.claude`: where the user's own CLAUDE.md goes. */
  claudeHome: string;
  /** `$CAIRN_HOME`: its AGENT.md is the user's too. */
  cairnHome?: string;
  /** For showing paths under the home folder as `~/...`. */
  home?: string;
}

/** One row of the list: a file in the context, or one of the usual places with nothing there yet. */
interface MemoryEntry {
  path: string;
  /** Whose it is and how it came in: user, project, local, imported, rule, folder, memory. */
  kind: string;
  chars?: number;
  note?: string;
}

const USAGE = 'Usage: /memory lists the instruction and memory files; /memory <n> (or part of its path) opens one in your editor ($VISUAL, $EDITOR, else vi).';

/** Files in the context first (each once), then the project's and the user's CLAUDE.md files not created yet. */
async function memoryEntries(files: readonly InstructionFile[], deps: MemoryCommandDeps): Promise<MemoryEntry[]> {
  const entries: MemoryEntry[] = [];
  for (const f of files) {
    if (entries.some((e) => e.path === f.path)) continue;
    const how = f.importedBy ? `imported by ${shown(f.importedBy, deps)}` : f.loadedFor ? `loaded for ${f.loadedFor}` : undefined;
    entries.push({ path: f.path, kind: kindOf(f, deps), chars: f.content.length, ...(how ? { note: how } : {}) });
  }
  const usual: [string, string, string][] = [
    [path.join(deps.cwd, 'CLAUDE.md'), 'project', 'shared with the team'],
    [path.join(deps.cwd, 'CLAUDE.local.md'), 'local', 'this project, yours alone'],
    [path.join(deps.claudeHome, 'CLAUDE.md'), 'user', 'yours, in every project'],
    ...(deps.cairnHome
      ? ([
          [personaPaths('soul', { cairnHome: deps.cairnHome, cwd: deps.cwd })[0], 'soul', "the agent's character, mission and limits"],
          [personaPaths('user', { cairnHome: deps.cairnHome, cwd: deps.cwd })[0], 'profile', 'your preferences; compaction proposes additions'],
        ] as [string, string, string][])
      : []),
  ];
  for (const [file, kind, what] of usual) {
    if (entries.some((e) => e.path === file)) continue;
    entries.push({ path: file, kind, note: `${what}; ${(await exists(file)) ? (deps.instructions?.bare ? 'not read: --bare' : 'empty') : 'not created yet'}` });
  }
  return entries;
}

function listing(entries: readonly MemoryEntry[], notes: readonly EpisodicNote[], problems: readonly string[], deps: MemoryCommandDeps): string {
  const loaded = entries.filter((e) => e.chars !== undefined).length;
  const width = String(entries.length).length;
  const lines = [`Instruction files in the context (${loaded}):`];
  if (deps.instructions?.bare) lines.push('  none: cairn was started with --bare, so no instruction or memory file is read');
  entries.forEach((e, i) => {
    if (i === loaded) lines.push('Other places for instructions:');
    const size = e.chars === undefined ? '' : `  ${e.chars.toLocaleString('en-US')} chars${e.chars > INSTRUCTION_SIZE_WARNING ? ` (over ${INSTRUCTION_SIZE_WARNING.toLocaleString('en-US')}: sent whole with every request)` : ''}`;
    lines.push(`  ${String(i + 1).padStart(width)}  ${e.kind.padEnd(8)}  ${shown(e.path, deps)}${size}${e.note ? `  (${e.note})` : ''}`);
  });
  lines.push(...episodicLines(notes, deps));
  if (problems.length > 0) lines.push('Problems:', ...problems.map((p) => `  ${p}`));
  lines.push('/memory <n> opens one in your editor; the next request reads it again.');
  return lines.join('\n');
}

/** `/memory`: the instruction files loaded, with sizes and problems; `/memory <n>` opens one in $EDITOR. */
export function memoryCommand(deps: MemoryCommandDeps): SlashCommand {
  return {
    name: 'memory',
    description: 'Instruction and memory files (CLAUDE.md, MEMORY.md, SOUL.md, USER.md) and the episodic notes; open one in your editor',
    argHint: '[n | path]',
    async run(args, ctx) {
      if (!deps.instructions) return ctx.print('Instruction files are not available in this session.', 'warning');
      const entries = await memoryEntries(await deps.instructions.loadedFiles(), deps);
      const problems = deps.instructions.problems();
      const arg = args.trim();
      if (arg === '') {
        const episodic = await episodicNotes(deps.cwd);
        return ctx.print(listing(entries, episodic.notes, [...problems, ...episodic.problems], deps));
      }
      const picked = pick(entries, arg, deps);
      if (typeof picked === 'string') return ctx.print(`${picked}\n${USAGE}`, 'warning');
      await openInEditor(picked, ctx, deps);
    },
  };
}

/** The entry a number or a part of its path names, or what is wrong with the argument. */
function pick(entries: readonly MemoryEntry[], arg: string, deps: MemoryCommandDeps): MemoryEntry | string {
  if (/^\d+$/.test(arg)) {
    const entry = entries[Number(arg) - 1];
    return entry ?? `There is no file ${arg}: /memory lists ${entries.length}.`;
  }
  // The path as listed (or in full) names one file even when it is part of others' (CLAUDE.md, ~/.claude/CLAUDE.md).
  const exact = entries.find((e) => shown(e.path, deps) === arg || e.path === arg);
  if (exact) return exact;
  const matches = entries.filter((e) => shown(e.path, deps).includes(arg) || e.path.includes(arg));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length === 0) return `No instruction file's path contains "${arg}".`;
  return `"${arg}" matches ${matches.length} files (${matches.map((m) => shown(m.path, deps)).join(', ')}): give its number.`;
}

async function openInEditor(entry: MemoryEntry, ctx: AppContext, deps: MemoryCommandDeps): Promise<void> {
  const name = shown(entry.path, deps);
  if (!ctx.runExternalEditor) return ctx.print(`No terminal to open an editor in: edit ${entry.path} yourself.`, 'warning');
  const before = await readOrUndefined(entry.path);
  if (before === undefined) {
    // The editor creates the file on save; its folder (~/.claude) may not exist yet.
    try {
      await fs.mkdir(path.dirname(entry.path), { recursive: true });
    } catch (error) {
      return ctx.print(`Cannot create the folder for ${entry.path}: ${errorMessage(error)}`, 'error');
    }
  }
  const outcome = await ctx.runExternalEditor(entry.path);
  if (!outcome.ok) return ctx.print(`Editing ${name}: ${outcome.message}.`, 'error');
  const after = await readOrUndefined(entry.path);
  if (after === before) return ctx.print(`${name}: unchanged.`);
  const when = entry.note?.startsWith('loaded for')
    ? 'it was added to the conversation when a tool read a file there, so the model sees the change in the next session'
    : 'the next request reads it again';
  ctx.print(`${name}: ${before === undefined ? 'created' : 'saved'} (${(after ?? '').length.toLocaleString('en-US')} chars); ${when}.`);
}

/** The dated notes compaction and archival wrote: listed, never in the context (the model searches them). */
function episodicLines(notes: readonly EpisodicNote[], deps: MemoryCommandDeps): string[] {
  const where = shown(episodicDir(deps.cwd), deps);
  if (notes.length === 0) return [`Episodic notes: none yet in ${where}/ (compaction and archival at start write them).`];
  return [
    `Episodic notes in ${where}/ (${notes.length}; not in the context: the model searches them with the memory tool):`,
    ...notes.map((n) => `  ${path.basename(n.file)}  ${n.entries} entr${n.entries === 1 ? 'y' : 'ies'}  ${n.chars.toLocaleString('en-US')} chars`),
  ];
}

async function episodicNotes(cwd: string): Promise<{ notes: EpisodicNote[]; problems: string[] }> {
  try {
    return { notes: await listEpisodicNotes(cwd), problems: [] };
  } catch (error) {
    return { notes: [], problems: [`Episodic notes in ${episodicDir(cwd)}: ${errorMessage(error)}`] };
  }
}

function kindOf(f: InstructionFile, deps: MemoryCommandDeps): string {
  if (f.importedBy) return 'imported';
  if (f.loadedFor) return f.path.split(path.sep).includes('rules') ? 'rule' : 'folder';
  if (path.basename(f.path) === 'MEMORY.md') return 'memory';
  const persona = personaKindOf(f.path);
  if (persona) return persona === 'soul' ? 'soul' : 'profile';
  if (f.path.split(path.sep).join('/').includes('/.claude/rules/')) return 'rule';
  if (path.basename(f.path) === 'CLAUDE.local.md') return 'local';
  return [deps.claudeHome, deps.cairnHome].some((dir) => dir !== undefined && isUnder(dir, f.path)) ? 'user' : 'project';
}

function isUnder(dir: string, file: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** A path as the user knows it: relative inside the workspace, `~/` under the home folder. */
function shown(file: string, deps: MemoryCommandDeps): string {
  const rel = path.relative(deps.cwd, file);
  if (rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
  const home = deps.home ?? os.homedir();
  const fromHome = path.relative(home, file);
  if (fromHome !== '' && !fromHome.startsWith('..') && !path.isAbsolute(fromHome)) return `~/${fromHome}`;
  return file;
}

async function exists(file: string): Promise<boolean> {
  return (await readOrUndefined(file)) !== undefined;
}

/** The file's text; undefined when it is not there (or cannot be read: the editor will say why). */
async function readOrUndefined(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined; // absent is the usual case; an unreadable file is the editor's to report
  }
}
