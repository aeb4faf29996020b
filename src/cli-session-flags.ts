// Claude Code's session flags (`claude -p ... --append-system-prompt ... --max-budget-usd ...`), read
// into one record: each value checked here, so a bad one stops cairn with a message naming the flag.
// What each does is decided where it is used (system prompt, settings layer, tool pool, headless).
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AgentDefinition } from './agents/agent-definition.js';
import { canonicalToolName } from './permissions/rules/parse.js';
import { errorMessage } from './util/error-message.js';

import { EFFORT_LEVELS, type Effort } from './providers/effort.js';

export interface SessionFlags {
  /** --system-prompt / --system-prompt-file: replaces the fixed part of the system prompt. */
  systemPrompt?: string;
  /** --append-system-prompt / --append-system-prompt-file: added at the end of the system prompt. */
  appendSystemPrompt?: string;
  /** --json-schema: the final answer must be JSON matching it (headless). */
  jsonSchema?: Record<string, unknown>;
  /** --max-budget-usd: the spending cap of this run. */
  maxBudgetUsd?: number;
  /** --add-dir: folders the session may work in besides the workspace (absolute). */
  addDirs: string[];
  /** --plugin-dir: plugin folders loaded for this session only (absolute). */
  pluginDirs: string[];
  /** --settings: a settings file or a JSON object, one more settings layer. */
  settings?: string;
  /** --tools: the tools offered, in cairn's names ([] offers none); absent: all of them. */
  tools?: string[];
  /** --agents as given: a JSON object of definitions by name (readFlagAgents reads them). */
  agentsJson?: Record<string, unknown>;
  /** --agents: subagent definitions for this session, by name, once readFlagAgents has read them. */
  agents?: AgentDefinition[];
  /** --session-id: the new session's id. */
  sessionId?: string;
  /** -n / --name: the session's name (as /save gives it). */
  name?: string;
  /** --fork-session (with -c / --resume): a new session starting from the old one's history. */
  forkSession: boolean;
  /** --fallback-model: the model used once the session's model is overloaded or failing after its retries. */
  fallbackModel?: string;
  /** --effort: how hard the model thinks, where the provider supports it. */
  effort?: Effort;
  /** --include-partial-messages: stream-json also carries Claude Code's `stream_event` lines. */
  includePartialMessages: boolean;
  /** --bare: nothing is discovered (see src/settings/bare-mode.ts); only what the flags pass. */
  bare: boolean;
}

/** Flags cairn deliberately does not take, and why: a script using one fails saying so. */
export const UNSUPPORTED_FLAGS: Readonly<Record<string, string>> = {
  '--ide': 'cairn does not connect to IDE extensions; it runs in the terminal, or in a browser page with cairn serve',
  '--chrome': 'cairn does not drive a browser; web_fetch and web_search read the web',
  '--no-chrome': 'cairn does not drive a browser, so there is nothing to turn off',
  '--remote': 'cairn runs sessions on this machine only; cairn serve shows them in a browser',
  '--teleport': 'cairn runs sessions on this machine only; resume one here with --resume',
  '--permission-prompt-tool': 'cairn -p answers approvals from its rules (--allowed-tools, --permission-mode); an MCP tool cannot answer them',
};

export class FlagError extends Error {
  override name = 'FlagError';
}

/** The raw parseArgs values this module reads. */
export interface RawSessionFlags {
  'system-prompt'?: string;
  'system-prompt-file'?: string;
  'append-system-prompt'?: string;
  'append-system-prompt-file'?: string;
  'json-schema'?: string;
  'max-budget-usd'?: string;
  'add-dir'?: string[];
  'plugin-dir'?: string[];
  settings?: string;
  tools?: string[];
  agents?: string;
  'session-id'?: string;
  name?: string;
  'fork-session'?: boolean;
  'fallback-model'?: string;
  effort?: string;
  'include-partial-messages'?: boolean;
  bare?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks and reads the session flags; files named by a flag are read now. Throws FlagError naming the flag. */
export function sessionFlagsFrom(v: RawSessionFlags, cwd: string): SessionFlags {
  const one = (text: string | undefined, file: string | undefined, flag: string): string | undefined => {
    if (text !== undefined && file !== undefined) throw new FlagError(`${flag} and ${flag}-file: give one of them`);
    return file !== undefined ? readFlagFile(`${flag}-file`, path.resolve(cwd, file)) : text;
  };
  const systemPrompt = one(v['system-prompt'], v['system-prompt-file'], '--system-prompt');
  const appendSystemPrompt = one(v['append-system-prompt'], v['append-system-prompt-file'], '--append-system-prompt');
  const jsonSchema = v['json-schema'] !== undefined ? jsonObject('--json-schema', v['json-schema']) : undefined;
  let maxBudgetUsd: number | undefined;
  if (v['max-budget-usd'] !== undefined) {
    maxBudgetUsd = Number(v['max-budget-usd']);
    if (!(maxBudgetUsd > 0) || !Number.isFinite(maxBudgetUsd)) throw new FlagError(`--max-budget-usd: expected an amount in dollars above 0, got "${v['max-budget-usd']}"`);
  }
  const agentsJson = v.agents !== undefined ? jsonObject('--agents', v.agents) : undefined;
  const sessionId = v['session-id'];
  if (sessionId !== undefined && !UUID.test(sessionId)) throw new FlagError(`--session-id: expected a UUID (like 123e4567-e89b-12d3-a456-426614174000), got "${sessionId}"`);
  const effort = v.effort;
  if (effort !== undefined && !(EFFORT_LEVELS as readonly string[]).includes(effort)) throw new FlagError(`--effort: expected one of ${EFFORT_LEVELS.join(', ')}, got "${effort}"`);
  const name = v.name?.trim();
  if (v.name !== undefined && !name) throw new FlagError('--name: expected a name');
  return {
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    ...(appendSystemPrompt !== undefined ? { appendSystemPrompt } : {}),
    ...(jsonSchema ? { jsonSchema } : {}),
    ...(maxBudgetUsd !== undefined ? { maxBudgetUsd } : {}),
    addDirs: (v['add-dir'] ?? []).map((dir) => existingFolder('--add-dir', path.resolve(cwd, dir))),
    pluginDirs: (v['plugin-dir'] ?? []).map((dir) => existingFolder('--plugin-dir', path.resolve(cwd, dir))),
    ...(v.settings !== undefined ? { settings: v.settings } : {}),
    ...(v.tools !== undefined ? { tools: toolNames(v.tools) } : {}),
    ...(agentsJson ? { agentsJson } : {}),
    ...(sessionId !== undefined ? { sessionId: sessionId.toLowerCase() } : {}),
    ...(name ? { name } : {}),
    forkSession: v['fork-session'] === true,
    ...(v['fallback-model'] ? { fallbackModel: v['fallback-model'] } : {}),
    ...(effort !== undefined ? { effort: effort as Effort } : {}),
    includePartialMessages: v['include-partial-messages'] === true,
    bare: v.bare === true,
  };
}

/** `--tools "Read,Bash" Edit`: Claude Code's names mapped to cairn's; "" offers none, "default" all. */
function toolNames(values: readonly string[]): string[] | undefined {
  const names = values.flatMap((value) => value.split(/[\s,]+/)).filter(Boolean);
  if (names.includes('default')) return undefined;
  return [...new Set(names.map(canonicalToolName))];
}

/**
 * --agents' definitions. Read after parsing, not in it: their loader (YAML, Markdown, the event
 * schemas) would otherwise load before the TUI's first frame, for a flag most runs never pass.
 */
export async function readFlagAgents(flags: SessionFlags): Promise<AgentDefinition[] | undefined> {
  if (flags.agentsJson === undefined) return undefined;
  const { agentsFromFlag } = await import('./agents/flag-agents.js');
  try {
    return agentsFromFlag(flags.agentsJson);
  } catch (error) {
    throw new FlagError(`--agents: ${errorMessage(error)}`);
  }
}

function jsonObject(flag: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FlagError(`${flag}: invalid JSON: ${errorMessage(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FlagError(`${flag}: expected a JSON object`);
  return value as Record<string, unknown>;
}

function existingFolder(flag: string, dir: string): string {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (error) {
    throw new FlagError(`${flag}: ${dir}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such folder' : errorMessage(error)}`);
  }
  if (!isDir) throw new FlagError(`${flag}: ${dir} is not a folder`);
  return dir;
}

function readFlagFile(flag: string, file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new FlagError(`${flag}: cannot read ${file}: ${errorMessage(error)}`);
  }
}
