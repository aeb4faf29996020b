import type { AgentDefinition } from '../agents/agent-definition.js';
import type { Effort } from '../providers/effort.js';
import type { CustomPrompt } from '../context/system-prompt.js';
import type { PermissionMode } from '../events.js';
import type { AskMcpServer } from './mcp-choices-at-start.js';
import type { SessionFacts } from './session-facts.js';
import type { AskTrust } from './workspace-settings.js';

/** What createRuntime (src/bootstrap.ts) is given: the flags, the environment, how the session is used. */
export interface RuntimeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  interactive: boolean;
  /** Headless with `--input-format stream-json`: ask_user_question's questions go out as events and the answers come back on stdin. */
  answersQuestions?: boolean;
  provider?: string;
  model?: string;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  now?: () => Date;
  /** Resume the newest session of this workspace (-c). */
  continueLatest?: boolean;
  /** Resume this session id (--resume ID). */
  resumeId?: string;
  /** Write the session file (default true). */
  persist?: boolean;
  /** --sandbox (true) / --no-sandbox (false): overrides sandbox.enabled. */
  sandbox?: boolean;
  /** Asks whether to trust the folder when its settings would widen something (the TUI); absent: never asked. */
  askTrust?: AskTrust;
  /** Asks about each new server of a trusted project's own MCP files (the TUI); absent: they wait. */
  askMcpServer?: AskMcpServer;
  /** --mcp-config values: files or JSON objects naming MCP servers. */
  mcpConfig?: string[];
  /**
   * The TUI: what its first frame does not show waits for finishStartup() (the TUI calls it just
   * after that frame; the first turn does if nobody has): the tools, the agent definitions,
   * SessionStart hooks, the cron scheduler and the MCP servers. Their notices then reach the
   * session as warnings instead of `startupNotices`. A turn waits for all of it.
   */
  deferStartup?: boolean;
  /** --system-prompt / --append-system-prompt. */
  systemPrompt?: CustomPrompt;
  /** --tools: the built-in tools offered, in cairn's names ([]: none); absent: all. */
  tools?: string[];
  /** --session-id: the new session's id. */
  sessionId?: string;
  /** --fork-session: continue the resumed session's history under a new id, the old file untouched. */
  forkSession?: boolean;
  /** --max-budget-usd: the spending cap of this run. */
  maxBudgetUsd?: number;
  /** --fallback-model: used once the model's retries on overload or server errors run out. */
  fallbackModel?: string;
  /** --effort: the thinking budget where the provider supports it. */
  effort?: Effort;
  /** --agents: subagent definitions for this session, by name. */
  agents?: readonly AgentDefinition[];
  /** --bare: nothing discovered (hooks, MCP servers, plugins, skills, agents, instruction and memory files); only what the flags pass. */
  bare?: boolean;
  /** Settled already (the TUI draws its first frame from them first); the options they came from are not read again. */
  facts?: SessionFacts;
}
