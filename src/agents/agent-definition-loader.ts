import fs from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { findGitRoot, foldersDown } from '../context/instruction-files.js';
import { canonicalToolName } from '../permissions/rules/parse.js';
import { errorMessage } from '../util/error-message.js';
import { PermissionModeSchema, type PermissionMode } from '../events.js';
import { parseLenientFrontmatter } from '../util/lenient-frontmatter.js';
import { danglingLinkTarget, FileReadError, readTextFile } from '../util/read-text-file.js';
import type { AgentDefinition } from './agent-definition.js';
import { BUILTIN_AGENTS } from './agent-definition.js';

// Claude Code's fields; `max_turns` is cairn's older spelling of maxTurns. Unknown fields are ignored,
// as Claude Code does (color, skills, hooks, memory, ...).
const ToolListSchema = z.union([z.string(), z.array(z.string())]);
const FrontmatterSchema = z.object({
  // Claude Code asks for lowercase and hyphens but loads dots too (dotnet-framework-4.8-expert).
  name: z.string().regex(/^[A-Za-z0-9][\w.-]*$/, 'letters, digits, ".", "-" and "_" only'),
  description: z.string().min(1),
  tools: ToolListSchema.nullish(),
  disallowedTools: ToolListSchema.nullish(),
  model: z.string().nullish(),
  permissionMode: z.string().nullish(),
  maxTurns: z.coerce.number().int().positive().nullish(),
  max_turns: z.coerce.number().int().positive().nullish(),
  isolation: z.string().nullish(),
});

export interface AgentLoadProblem {
  file: string;
  message: string;
}

/**
 * The folders definitions are read from. Later folders win on a name clash: project over user,
 * .cairn over .claude, and, as in Claude Code, a folder nearer the workspace over one above it
 * (each folder from the git root down to the workspace has its say; without a git root, the
 * workspace alone).
 */
export async function agentDirs(cairnHome: string, cwd: string, claudeHome?: string): Promise<string[]> {
  const root = await findGitRoot(cwd);
  const folders = root ? foldersDown(root, cwd) : [cwd];
  const dirs = [
    ...(claudeHome ? [path.join(claudeHome, 'agents')] : []),
    path.join(cairnHome, 'agents'),
    ...folders.flatMap((dir) => [path.join(dir, '.claude', 'agents'), path.join(dir, '.cairn', 'agents')]),
  ];
  // A home folder under git is the git root too: its ~/.claude/agents is read once, as the user's.
  return [...new Set(dirs)];
}

/** A plugin's agent folders: its agents are `<plugin>:<name>`, listed with their plugin. */
export interface PluginAgentDirs {
  plugin: string;
  dirs: readonly string[];
}

/** Built-ins plus markdown definitions (then plugins'); a bad file is reported with its path and field, and skipped. */
export async function loadAgentDefinitions(
  cairnHome: string,
  cwd: string,
  claudeHome?: string,
  plugins: readonly PluginAgentDirs[] = [],
  /** --bare: the user's and the project's agent folders are not read (plugins' and built-ins still are). */
  options: { bare?: boolean } = {},
): Promise<{ agents: AgentDefinition[]; problems: AgentLoadProblem[] }> {
  const byName = new Map(BUILTIN_AGENTS.map((a) => [a.name, a]));
  const problems: AgentLoadProblem[] = [];
  const userDirs = new Set([cairnHome, ...(claudeHome ? [claudeHome] : [])].map((d) => path.join(d, 'agents')));
  const pluginOf = new Map(plugins.flatMap((p) => p.dirs.map((d) => [d, p.plugin] as const)));
  const folders = options.bare === true ? [] : await agentDirs(cairnHome, cwd, claudeHome);
  for (const dir of [...folders, ...pluginOf.keys()]) {
    let names: string[];
    try {
      // Folders are read recursively, as Claude Code does (agents kept by category); a README is not an agent.
      names = (await fs.readdir(dir, { recursive: true })).map(String).filter((n) => n.endsWith('.md') && path.basename(n).toLowerCase() !== 'readme.md').sort();
    } catch (error) {
      // No folder is the common case; one that exists but cannot be listed hides every agent in it.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') problems.push({ file: dir, message: `cannot list the folder: ${code ?? errorMessage(error)}` });
      continue;
    }
    for (const name of names) {
      const file = path.join(dir, name);
      const text = await readAgentFile(file);
      if (text === undefined) continue;
      // A plugin's agent may narrow its mode but not widen it (Claude Code ignores the field in plugins).
      const result = typeof text === 'string' ? parseAgentFile(file, text, { fromProject: !userDirs.has(dir) }) : text;
      const plugin = pluginOf.get(dir);
      if ('problem' in result) problems.push(result.problem);
      else if (plugin !== undefined) byName.set(`${plugin}:${result.agent.name}`, { ...result.agent, name: `${plugin}:${result.agent.name}`, plugin });
      else byName.set(result.agent.name, result.agent);
    }
  }
  return { agents: [...byName.values()], problems };
}

// A definition is a page of text; a bigger file is a mistake, not an agent.
const MAX_AGENT_FILE_BYTES = 1024 * 1024;

/**
 * The file's text, or a problem naming it: a directory or FIFO named `x.md` is skipped without
 * being opened (a FIFO would hang start-up). Undefined when it vanished since the listing.
 */
async function readAgentFile(file: string): Promise<string | { problem: AgentLoadProblem } | undefined> {
  try {
    const text = await readTextFile(file, { maxBytes: MAX_AGENT_FILE_BYTES });
    if (text !== undefined) return text;
    const target = await danglingLinkTarget(file);
    return target === undefined ? undefined : { problem: { file, message: `is a symbolic link to ${target}, which does not exist` } };
  } catch (error) {
    if (error instanceof FileReadError) return { problem: { file, message: error.problem } };
    throw error;
  }
}

/**
 * One definition, read as leniently as Claude Code: an unquoted `: ` in a value loads with a
 * warning. `fromProject`: the file is the workspace's (a cloned repository), whose
 * `permissionMode` may narrow what the agent does but never widen it.
 */
export function parseAgentFile(file: string, source: string, opts: { fromProject?: boolean } = {}): { agent: AgentDefinition } | { problem: AgentLoadProblem } {
  const fm = parseLenientFrontmatter(source);
  if ('problem' in fm) return { problem: { file, message: fm.problem } };
  if (fm.data === undefined) return { problem: { file, message: 'no YAML frontmatter (a --- block with name and description)' } };
  const parsed = FrontmatterSchema.safeParse(fm.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: { file, message: issue ? `${issue.path.join('.') || 'frontmatter'}: ${issue.message}` : 'invalid frontmatter' } };
  }
  const data = parsed.data;
  const warnings = [...fm.warnings];
  const mode = agentMode(data.permissionMode ?? undefined, opts.fromProject === true, warnings);
  const model = data.model?.trim();
  const tools = agentToolNames(data.tools);
  const disallowed = agentToolNames(data.disallowedTools);
  const maxTurns = data.maxTurns ?? data.max_turns ?? undefined;
  const body = fm.body.trim();
  const isolation = agentIsolation(data.isolation ?? undefined, warnings);
  return {
    agent: {
      name: data.name,
      description: data.description,
      ...(tools ? { tools } : {}),
      ...(disallowed ? { disallowedTools: disallowed } : {}),
      ...(model && model !== 'inherit' ? { model } : {}),
      ...(maxTurns ? { maxTurns } : {}),
      ...(mode ? { mode } : {}),
      ...(isolation ? { isolation } : {}),
      prompt: body || `You are the ${data.name} subagent: ${data.description}`,
      source: file,
      ...(warnings.length > 0 ? { warnings } : {}),
    },
  };
}

/** `Read, Grep, Task(explore)` or a YAML list, as cairn's names; a specifier names no other tool. */
export function agentToolNames(value: string | string[] | null | undefined): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = Array.isArray(value) ? value : value.split(',');
  return list.map((t) => t.trim().replace(/\(.*\)$/, '').trim()).filter(Boolean).map(canonicalToolName);
}

/** `isolation: worktree` (Claude Code's key); another value (Claude Code's `remote`) loads with a warning and runs in place. */
export function agentIsolation(value: string | undefined, warnings: string[]): 'worktree' | undefined {
  if (value === undefined || value === 'none') return undefined;
  if (value === 'worktree') return 'worktree';
  warnings.push(`isolation: "${value}" is not one cairn has (worktree); the agent works in the session's folder`);
  return undefined;
}

const WIDENING: ReadonlySet<string> = new Set(['acceptEdits', 'bypassPermissions', 'auto']);

function agentMode(value: string | undefined, fromProject: boolean, warnings: string[]): PermissionMode | undefined {
  if (value === undefined || value === 'default' || value === 'manual') return undefined;
  if (fromProject && WIDENING.has(value)) {
    warnings.push(`permissionMode: ${value} is not applied: a project's agent definition may not widen what its agent can do without asking; it runs in the session's mode (a definition in ~/.claude/agents may)`);
    return undefined;
  }
  const mode = PermissionModeSchema.safeParse(value);
  if (mode.success) return mode.data;
  warnings.push(`permissionMode: "${value}" is not a mode cairn has (${PermissionModeSchema.options.join(', ')}); it runs in the session's mode`);
  return undefined;
}
