import fs from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { canonicalToolName } from '../permissions/rule-parse.js';
import { errorMessage } from '../util/error-message.js';
import { danglingLinkTarget, FileReadError, readTextFile, stripBom } from '../util/read-text-file.js';
import type { AgentDefinition } from './agent-definition.js';
import { BUILTIN_AGENTS } from './agent-definition.js';

const FrontmatterSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][\w-]*$/, 'letters, digits, - and _ only'),
  description: z.string().min(1),
  tools: z.union([z.string(), z.array(z.string())]).optional(),
  model: z.string().optional(),
  max_turns: z.number().int().positive().optional(),
});

export interface AgentLoadProblem {
  file: string;
  message: string;
}

export function agentDirs(cairnHome: string, cwd: string): string[] {
  // Later folders win on a name clash: project over user, .cairn over .claude.
  return [path.join(cairnHome, 'agents'), path.join(cwd, '.claude', 'agents'), path.join(cwd, '.cairn', 'agents')];
}

/** Built-ins plus markdown definitions; a bad file is reported with its path and field, and skipped. */
export async function loadAgentDefinitions(cairnHome: string, cwd: string): Promise<{ agents: AgentDefinition[]; problems: AgentLoadProblem[] }> {
  const byName = new Map(BUILTIN_AGENTS.map((a) => [a.name, a]));
  const problems: AgentLoadProblem[] = [];
  for (const dir of agentDirs(cairnHome, cwd)) {
    let names: string[];
    try {
      names = (await fs.readdir(dir)).filter((n) => n.endsWith('.md')).sort();
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
      const result = typeof text === 'string' ? parseAgentFile(file, text) : text;
      if ('problem' in result) problems.push(result.problem);
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

export function parseAgentFile(file: string, source: string): { agent: AgentDefinition } | { problem: AgentLoadProblem } {
  // Editors on Windows save a BOM before the first `---`.
  const text = stripBom(source);
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { problem: { file, message: 'no YAML frontmatter (a --- block with name and description)' } };
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (error) {
    return { problem: { file, message: `frontmatter is not valid YAML: ${errorMessage(error).split('\n')[0]}` } };
  }
  const parsed = FrontmatterSchema.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { problem: { file, message: `${issue.path.join('.') || 'frontmatter'}: ${issue.message}` } };
  }
  const fm = parsed.data;
  const tools = fm.tools === undefined ? undefined : (Array.isArray(fm.tools) ? fm.tools : fm.tools.split(',')).map((t) => t.trim()).filter(Boolean).map(canonicalToolName);
  const body = match[2]!.trim();
  return {
    agent: {
      name: fm.name,
      description: fm.description,
      ...(tools ? { tools } : {}),
      ...(fm.model && fm.model !== 'inherit' ? { model: fm.model } : {}),
      ...(fm.max_turns ? { maxTurns: fm.max_turns } : {}),
      prompt: body || `You are the ${fm.name} subagent: ${fm.description}`,
      source: file,
    },
  };
}
