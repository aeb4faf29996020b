// What the settings files decide for a session beyond permissions: whether the folder is trusted
// (asked once in the TUI, remembered), the `env` and `model` keys, and the keys cairn does not use.
import fs from 'node:fs/promises';
import path from 'node:path';
import { claudeHomeFrom, readSettingsLayers, type SettingsLayer } from '../settings/settings-layers.js';
import { describeWithheld, layersInForce } from '../settings/trusted-layers.js';
import { trustWorkspace, workspaceTrust } from '../settings/workspace-trust.js';
import { projectGrantLines } from '../skills/project-grants.js';
import { errorMessage } from '../util/error-message.js';
import { spendCapSetting, type SpendCapSetting } from '../session/spend-cap.js';

/** What the TUI shows when it asks whether to trust the folder. */
export interface TrustQuestion {
  folder: string;
  /** One line per file: what its settings would allow once trusted. */
  wouldApply: string[];
}

/** Asks the user; true means trust (remembered). Absent (headless): never asked. */
export type AskTrust = (question: TrustQuestion) => Promise<boolean>;

/**
 * Whether the folder's own settings may widen what is allowed. Already trusted (by cairn or
 * Claude Code): yes. Otherwise, if its files would widen something, the user is asked when
 * someone can answer (`askTrust`) and a yes is remembered; headless, or on a no, they wait and a
 * notice names what was not applied. A folder with nothing to withhold is not asked about.
 */
export async function settleWorkspaceTrust(opts: {
  cwd: string;
  cairnHome: string;
  claudeHome: string;
  askTrust?: AskTrust;
  notices: string[];
}): Promise<boolean> {
  const trust = await workspaceTrust({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome });
  opts.notices.push(...trust.problems);
  if (trust.trusted) return true;
  let layers: SettingsLayer[];
  try {
    layers = (await readSettingsLayers({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: opts.claudeHome })).layers;
  } catch {
    return false; // the settings loader reads the same files next and reports the problem, naming the file
  }
  const wouldApply = [...describeWithheld(layersInForce(layers, false).withheld), ...(await gatedFilesIn(opts.cwd)), ...(await projectGrantLines(opts.cwd))];
  if (wouldApply.length === 0) return false;
  if (opts.askTrust && (await opts.askTrust({ folder: opts.cwd, wouldApply }))) {
    try {
      const saved = await trustWorkspace({ workspace: opts.cwd, cairnHome: opts.cairnHome });
      if (!saved.remembered) opts.notices.push(`This folder is trusted for this session only (${saved.reason ?? 'not remembered'}).`);
    } catch (err) {
      opts.notices.push(`Trusted for this session, but not remembered: ${errorMessage(err)}`);
    }
    return true;
  }
  opts.notices.push(
    `This folder is not trusted, so these settings from its files are not applied: ${wouldApply.join(' | ')}. ` +
      `${opts.askTrust ? 'You will be asked again next time.' : 'Start cairn here without -p once and trust the folder to apply them.'}`,
  );
  return false;
}

// Files beside the settings that only a trusted folder may use (their modules check `trusted`).
const GATED_FILES: ReadonlyArray<[name: string, does: string]> = [
  ['.hooks.json', 'hooks (commands run on agent events)'],
  ['.mcp.json', 'MCP servers (commands started for their tools)'],
];

async function gatedFilesIn(cwd: string): Promise<string[]> {
  const found = await Promise.all(
    GATED_FILES.map(async ([name, does]) => {
      const file = path.join(cwd, name);
      try {
        await fs.lstat(file);
        return [`${file}: ${does}`];
      } catch {
        return []; // absent (or unreadable, which its own module reports)
      }
    }),
  );
  return found.flat();
}

/** The merged `env` (a later file wins per variable; "" unsets it) and `model` (the most specific file's). */
export function sessionSettingsFrom(layers: readonly SettingsLayer[], notices: string[]): { env: Record<string, string>; model?: string } {
  const env: Record<string, string> = {};
  let model: string | undefined;
  for (const layer of layers) {
    const e = layer.data['env'];
    if (e !== undefined) {
      if (typeof e !== 'object' || e === null || Array.isArray(e)) notices.push(`${layer.file}: env: expected an object of variables; not used`);
      else {
        for (const [name, value] of Object.entries(e as Record<string, unknown>)) {
          if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') env[name] = String(value);
          else notices.push(`${layer.file}: env.${name}: expected a string; not used`);
        }
      }
    }
    const m = layer.data['model'];
    if (typeof m === 'string' && m.trim() !== '') model = m.trim();
    else if (m !== undefined) notices.push(`${layer.file}: model: expected a model name; not used`);
  }
  return { env, ...(model !== undefined ? { model } : {}) };
}

/**
 * Applies settings' env to an environment: process.env in the CLI (one session, so every subprocess
 * gets it); under `cairn serve` the session's own copy, which its commands, hooks and servers are given.
 */
export function applySettingsEnv(target: NodeJS.ProcessEnv, env: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(env)) {
    if (value === '') delete target[name];
    else target[name] = value;
  }
}

// Keys cairn reads: here, in the permission loader, or in the modules that own them (sandbox,
// hooks, MCP, status line...). Anything else is a Claude Code setting cairn does not act on.
const KNOWN_KEYS = new Set([
  '$schema',
  'permissions',
  'env',
  'model',
  'sandbox',
  'hooks',
  'disableAllHooks',
  'mcpServers',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'disabledMcpjsonServers',
  'statusLine',
  'cleanupPeriodDays',
  'claudeMdExcludes',
  'largeOutputThreshold',
  'webSearch',
  'maxBudgetUsd',
  'autoMode',
  'enabledPlugins',
  'extraKnownMarketplaces',
]);
const KNOWN_PERMISSION_KEYS = new Set(['allow', 'ask', 'deny', 'defaultMode', 'additionalDirectories', 'disableBypassPermissionsMode', 'liftBuiltinDeny']);

/** One notice per settings file listing the keys cairn does not use (so nothing is dropped silently). */
export function unknownKeyNotices(layers: readonly SettingsLayer[]): string[] {
  const out: string[] = [];
  for (const layer of layers) {
    // The command line's own layer carries flags under their names (--plugin-dir, --bare): never a settings key.
    const keys = Object.keys(layer.data).filter((k) => !KNOWN_KEYS.has(k) && !(layer.commandLine === true && k.startsWith('--')));
    const permissions = layer.data['permissions'];
    if (typeof permissions === 'object' && permissions !== null && !Array.isArray(permissions)) {
      keys.push(...Object.keys(permissions).filter((k) => !KNOWN_PERMISSION_KEYS.has(k)).map((k) => `permissions.${k}`));
    }
    if (keys.length > 0) out.push(`${layer.file}: cairn does not support ${keys.map((k) => JSON.stringify(k)).join(', ')}; ${keys.length === 1 ? 'it is' : 'they are'} ignored`);
  }
  return out;
}

/**
 * Settles trust, applies the settings' `env` to `opts.env` (process.env in the CLI, the session's copy under serve), and says which
 * model the settings choose: `--model` and `$CAIRN_MODEL` win over a settings file's `model`.
 * Everything worth telling goes to `notices`.
 */
export async function workspaceSettings(opts: {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  flagModel?: string;
  /** --max-budget-usd: wins over the settings' maxBudgetUsd. */
  flagBudget?: number;
  askTrust?: AskTrust;
  notices: string[];
}): Promise<{ claudeHome: string; trusted: boolean; model?: string; spendCap?: SpendCapSetting }> {
  const claudeHome = claudeHomeFrom(opts.env);
  const trusted = await settleWorkspaceTrust({ ...opts, claudeHome });
  let layers: SettingsLayer[];
  try {
    layers = (await readSettingsLayers({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome })).layers;
  } catch {
    // The permission loader reports it, naming the file, and start-up stops.
    return { claudeHome, trusted, ...(opts.flagBudget !== undefined ? { spendCap: { usd: opts.flagBudget, source: '--max-budget-usd' } } : {}) };
  }
  opts.notices.push(...unknownKeyNotices(layers));
  const inForce = layersInForce(layers, trusted).layers;
  const session = sessionSettingsFrom(inForce, opts.notices);
  applySettingsEnv(opts.env, session.env);
  const model = opts.flagModel ?? (opts.env['CAIRN_MODEL'] ? undefined : session.model);
  const spendCap = spendCapSetting(inForce, opts.flagBudget, opts.notices);
  return { claudeHome, trusted, ...(model !== undefined ? { model } : {}), ...(spendCap ? { spendCap } : {}) };
}
