// Which parts of the settings files apply, given workspace trust. The user's own files always
// apply. A folder's files (project and local: both can arrive with a cloned repository) apply at
// once where they narrow (deny and ask rules, a stricter mode); what they widen waits for trust.
import type { SettingsLayer } from './settings-layers.js';

/** A part of a folder's settings file that waits for trust. */
export interface WithheldSetting {
  file: string;
  /** The key as written in the file: `permissions.allow`, `env`, `sandbox.excludedCommands`. */
  key: string;
  /** What it would have done, counted: "3 rules", "2 variables". */
  summary: string;
}

// Top-level keys that let the folder run code or reach more: hooks and helpers run commands, env
// reaches every subprocess (and could send the API key elsewhere), MCP settings start servers.
const WIDENING_KEYS = [
  'env',
  'hooks',
  'mcpServers',
  'enableAllProjectMcpServers',
  'enabledMcpjsonServers',
  'apiKeyHelper',
  'awsAuthRefresh',
  'awsCredentialExport',
  'otelHeadersHelper',
  'statusLine',
  // Where web_search sends the queries, and the user's search API key with them.
  'webSearch',
  // Switches off the user's own hooks too, a PreToolUse guard among them.
  'disableAllHooks',
  // A plugin runs hooks and MCP servers and adds commands; a marketplace is where plugins come from.
  'enabledPlugins',
  'extraKnownMarketplaces',
] as const;

// Under `permissions`: what would be allowed without asking, and where.
const WIDENING_PERMISSIONS = ['allow', 'additionalDirectories'] as const;

// Modes that ask less than the default; a folder may choose a stricter one at once (plan, dontAsk).
const WIDENING_MODES: ReadonlySet<unknown> = new Set(['acceptEdits', 'bypassPermissions', 'auto']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function summarize(value: unknown): string {
  if (Array.isArray(value)) return `${value.length} ${value.length === 1 ? 'entry' : 'entries'}`;
  if (isObject(value)) {
    const keys = Object.keys(value);
    return keys.length <= 4 ? keys.join(', ') || 'empty' : `${keys.slice(0, 4).join(', ')} and ${keys.length - 4} more`;
  }
  return JSON.stringify(value);
}

/** A folder's settings with the widening parts removed, and what was removed. */
function narrowOnly(layer: SettingsLayer): { data: Record<string, unknown>; withheld: WithheldSetting[] } {
  const withheld: WithheldSetting[] = [];
  const data: Record<string, unknown> = { ...layer.data };
  const hold = (key: string, value: unknown): void => {
    withheld.push({ file: layer.file, key, summary: summarize(value) });
  };
  for (const key of WIDENING_KEYS) {
    if (!(key in data)) continue;
    hold(key, data[key]);
    delete data[key];
  }
  if (isObject(data['permissions'])) {
    const permissions = { ...data['permissions'] };
    for (const key of WIDENING_PERMISSIONS) {
      if (!(key in permissions)) continue;
      hold(`permissions.${key}`, permissions[key]);
      delete permissions[key];
    }
    if (WIDENING_MODES.has(permissions['defaultMode'])) {
      hold('permissions.defaultMode', permissions['defaultMode']);
      delete permissions['defaultMode'];
    }
    data['permissions'] = permissions;
  }
  // The sandbox may be switched on by the folder at once; its exceptions and openings wait.
  if (isObject(data['sandbox'])) {
    const sandbox = data['sandbox'];
    const kept: Record<string, unknown> = sandbox['enabled'] === true ? { enabled: true } : {};
    for (const [key, value] of Object.entries(sandbox)) if (!(key in kept)) hold(`sandbox.${key}`, value);
    data['sandbox'] = kept;
  }
  return { data, withheld };
}

/**
 * The settings layers in force. Trusted: all of them, whole. Not trusted: the user's files whole,
 * the folder's files (project and local scopes) without what they would widen.
 */
export function layersInForce(layers: readonly SettingsLayer[], trusted: boolean): { layers: SettingsLayer[]; withheld: WithheldSetting[] } {
  if (trusted) return { layers: [...layers], withheld: [] };
  const out: SettingsLayer[] = [];
  const withheld: WithheldSetting[] = [];
  for (const layer of layers) {
    if (layer.scope === 'user') {
      out.push(layer);
      continue;
    }
    const narrowed = narrowOnly(layer);
    out.push({ ...layer, data: narrowed.data });
    withheld.push(...narrowed.withheld);
  }
  return { layers: out, withheld };
}

/** One line per file: what the folder's settings would do once trusted. */
export function describeWithheld(withheld: readonly WithheldSetting[]): string[] {
  const byFile = new Map<string, string[]>();
  for (const w of withheld) byFile.set(w.file, [...(byFile.get(w.file) ?? []), `${w.key} (${w.summary})`]);
  return [...byFile].map(([file, parts]) => `${file}: ${parts.join('; ')}`);
}
