import type { PermissionMode } from '../events.js';
import type { CompactionSettings } from '../loop/query.js';
import type { Message } from '../messages.js';
import type { PermissionChecker } from '../permissions/types.js';
import type { ModelChoice } from '../providers/effort.js';
import type { ModelProvider } from '../providers/provider.js';
import type { HookRunner } from '../hooks/hook-types.js';
import type { AnyTool } from '../tools/tool.js';
import type { CheckpointRecorder } from './checkpoint-tools.js';
import type { DecisionLog } from './decision-log.js';
import type { PromptHistory } from './rewind.js';
import type { SpendCap } from './spend-cap.js';

/** What an AgentSession is made of: its provider, tools and permissions, and the services it calls out to. */
export interface AgentSessionOptions {
  provider: ModelProvider;
  tools: readonly AnyTool[];
  permissions: PermissionChecker;
  cwd: string;
  /** The environment the user's `!` shell commands run with (the session's, its settings `env` applied); default process.env. */
  env?: NodeJS.ProcessEnv;
  system: (ctx: { mode: PermissionMode; model: string }) => string | Promise<string>;
  /** true when someone can answer permission prompts (the TUI); false denies with a reason. */
  interactive: boolean;
  /** Headless with a stream-json client: the model's questions wait for its answer (approvals are still not asked). */
  answersQuestions?: boolean;
  maxTurns?: number;
  now?: () => number;
  history?: readonly Message[];
  compaction?: CompactionSettings;
  /**
   * The auto-compaction threshold for a model's context window: with it, compaction follows the model
   * in use (/model), not the start-up one's window that `compaction.thresholdTokens` was made from.
   */
  compactionThreshold?: (contextWindow: number) => number;
  /** Builds a provider for another model (for /model): of the start-up provider, or of `choice.provider`. */
  providerFor?: (model: string, choice?: ModelChoice) => ModelProvider;
  /** A model for one prompt's turn only (a custom command's `model:`), or undefined for the session's. */
  modelForPrompt?: (text: string) => string | undefined;
  reminders?: () => string[] | Promise<string[]>;
  /** The id `cairn --resume` takes; session_start carries it so a script can continue the session. */
  sessionId?: string;
  /** Output tokens per model call (default DEFAULT_MAX_TOKENS). */
  maxTokens?: number;
  /** After an answer cut at the output limit, ask the model once to continue it. */
  continueOnMaxTokens?: boolean;
  /** The session's hooks, run by every turn's loop. */
  hooks?: HookRunner;
  /** Checkpoints of the tools' file changes, told which prompt is running (for rewind). */
  checkpoints?: CheckpointRecorder;
  /** The prompts of a resumed history that can be rewound to, and how many the session has had (LoadedSession.prompts). */
  prompts?: PromptHistory;
  /** The permission decision log (/permissions lists it); the session's owner subscribes it. */
  decisions?: DecisionLog;
  /** The spending cap (maxBudgetUsd, --max-budget-usd): counts every model call told, refuses the call that would pass it. */
  spendCap?: SpendCap;
  /** The model auto mode's classifier uses (`autoMode.model` in the user's settings); default the session's. */
  classifierModel?: string;
}
