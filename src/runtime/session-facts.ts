// What a session is before any of its parts exist: the folder (and whether it is trusted), the
// settings' permission rules and starting mode, the provider and model, config.json's session
// fields. The TUI settles these first and draws its first frame from them (the header and status
// row show nothing else) while the engine's modules load; createRuntime builds on the same facts.
// Keep this module's imports light: everything here runs before the first frame.
import fs from 'node:fs/promises';
import type { PermissionMode } from '../permission-modes.js';
import { loadSettings, type LoadedSettings } from '../permissions/rules/settings.js';
import { resolveProvider, type ResolvedProvider } from '../providers/resolve.js';
import type { WithheldSetting } from '../settings/trusted-layers.js';
import { loadSessionConfig, type SessionConfig } from '../session/session-config.js';
import type { SpendCapSetting } from '../session/spend-cap.js';
import { cairnHomeFrom } from '../util/cairn-home.js';
import type { McpProjectChoices } from '../mcp/mcp-project-choices.js';
import { settleMcpChoices, type AskMcpServer } from './mcp-choices-at-start.js';
import { sessionModelAlias } from './session-model.js';
import { workspaceSettings, type AskTrust } from './workspace-settings.js';

export interface SessionFactsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  provider?: string;
  model?: string;
  permissionMode?: PermissionMode;
  /** --max-budget-usd: the spending cap of this run (over the settings' maxBudgetUsd). */
  maxBudgetUsd?: number;
  /** Asks whether to trust the folder when its settings would widen something; absent: never asked. */
  askTrust?: AskTrust;
  /** Asks about each new server of a trusted project's own MCP files; absent: never asked, they wait. */
  askMcpServer?: AskMcpServer;
  /** --mcp-config values (a server they name is not the project's to ask about). */
  mcpConfig?: string[];
}

export interface SessionFacts {
  /** The workspace, symlinks resolved. */
  cwd: string;
  cairnHome: string;
  /** Claude Code's user folder. */
  claudeHome: string;
  /** Whether the folder's own settings may widen what is allowed. */
  trusted: boolean;
  /** The permission settings in force (rules, directories, the settings' default mode). */
  settings: LoadedSettings & { withheld: WithheldSetting[] };
  /** The mode the session starts in: the flag, else the settings', else default. */
  mode: PermissionMode;
  resolved: ResolvedProvider;
  sessionConfig: SessionConfig;
  /** The user's answers about the project's own MCP servers (asked at start, remembered). */
  mcpChoices: McpProjectChoices;
  /** The spending cap in force (maxBudgetUsd, --max-budget-usd), if any. */
  spendCap?: SpendCapSetting;
  /** Problems that leave cairn usable, found so far (settings files, the mode): told at start. */
  notices: string[];
}

/**
 * Settles trust (asking, when `askTrust` is given and the folder's settings would widen
 * something), applies the settings' `env` to `options.env`, and resolves the rest. Throws errors
 * naming the file, field or flag at fault, as createRuntime does: cairn refuses to start half-configured.
 */
export async function settleSessionFacts(options: SessionFactsOptions): Promise<SessionFacts> {
  const cwd = await fs.realpath(options.cwd);
  const cairnHome = cairnHomeFrom(options.env);
  const notices: string[] = [];
  const folder = await workspaceSettings({ cwd, cairnHome, env: options.env, ...(options.model ? { flagModel: options.model } : {}), ...(options.maxBudgetUsd !== undefined ? { flagBudget: options.maxBudgetUsd } : {}), ...(options.askTrust ? { askTrust: options.askTrust } : {}), notices });
  const mcpChoices = await settleMcpChoices({
    cwd, cairnHome, claudeHome: folder.claudeHome, env: options.env, trusted: folder.trusted, notices,
    ...(options.mcpConfig ? { flagConfigs: options.mcpConfig } : {}), ...(options.askMcpServer ? { ask: options.askMcpServer } : {}),
  });
  const settings = await loadSettings({ workspace: cwd, cairnHome, claudeHome: folder.claudeHome, trusted: folder.trusted });
  notices.push(...settings.warnings);
  const starting = startingMode(options.permissionMode, settings);
  if (starting.warning) notices.push(starting.warning);
  const model = folder.model ?? options.model;
  const resolved = sessionModelAlias(
    resolveProvider({ flags: { ...(options.provider ? { provider: options.provider } : {}), ...(model ? { model } : {}) }, env: options.env, cairnHome }),
    cairnHome,
  );
  // Auto mode's classifier is a model call: with no provider (the offline model) it is default mode.
  const offlineAuto = starting.mode === 'auto' && resolved.api === 'offline';
  if (offlineAuto) notices.push('Auto mode needs a model for its classifier; with no provider configured (the offline model), cairn starts in default mode.');
  const mode = offlineAuto ? 'default' : starting.mode;
  return {
    cwd, cairnHome, claudeHome: folder.claudeHome, trusted: folder.trusted, settings, mode, resolved, sessionConfig: loadSessionConfig(cairnHome), mcpChoices,
    ...(folder.spendCap ? { spendCap: folder.spendCap } : {}),
    notices,
  };
}

/** The starting mode: the flag, else the settings' defaultMode, else default; bypass only where no settings file forbids it. */
export function startingMode(flag: PermissionMode | undefined, settings: Pick<LoadedSettings, 'defaultMode' | 'bypassDisabled'>): { mode: PermissionMode; warning?: string } {
  const mode = flag ?? settings.defaultMode ?? 'default';
  if (mode === 'bypassPermissions' && settings.bypassDisabled) {
    return { mode: 'default', warning: 'bypassPermissions is turned off by permissions.disableBypassPermissionsMode in a settings file; started in default mode' };
  }
  return { mode };
}
