import type { PermissionMode } from '../events.js';

export interface AgentDefinition {
  name: string;
  description: string;
  /** Tool names the agent may use (cairn names); undefined = every tool of the parent. */
  tools?: string[];
  /** Tool names taken away (cairn names), even when `tools` lists them. */
  disallowedTools?: string[];
  /** A model id or a Claude Code alias (sonnet, opus, haiku); undefined = the session's model. */
  model?: string;
  maxTurns?: number;
  /** The agent's own instructions (the markdown body). */
  prompt: string;
  /** A fixed mode (explore: plan, or `permissionMode:`); undefined = the parent's mode. */
  mode?: PermissionMode;
  /** `isolation: worktree`: each run works in a new git worktree of its own. */
  isolation?: 'worktree';
  /** Problems with the file that still let it load (an unquoted colon, an unknown field value), one line each. */
  warnings?: string[];
  /** Where it came from: 'built-in' or a file path. */
  source: string;
  /** The plugin that brought it, when one did. */
  plugin?: string;
}

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: 'explore',
    description: 'Read-only exploration: finds files, reads code, searches, and reports what it found. Cannot change anything.',
    tools: ['read_file', 'list_dir', 'glob', 'grep'],
    mode: 'plan',
    prompt:
      'You are an exploration subagent of cairn. You can only read: list, glob, grep and read files. ' +
      'Investigate the task thoroughly, then end with a concise report of what you found, with file paths and line numbers.',
    source: 'built-in',
  },
  {
    name: 'general',
    description: 'A general-purpose agent with every tool, for multi-step tasks that can run on their own.',
    prompt:
      'You are a subagent of cairn working on one delegated task. Do the task with the tools you have, ' +
      'then end with a concise report of what you did and found: the parent agent sees only that report.',
    source: 'built-in',
  },
];
