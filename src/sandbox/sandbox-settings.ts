import * as z from 'zod';
import type { SettingsLayer } from '../settings/settings-layers.js';

// The `sandbox` key of the settings files, in Claude Code's shape. Every layer's object is checked
// on its own (so a bad value names its file), then folded lowest precedence first: objects merge
// per key, arrays concatenate, the more specific file wins for scalars.

const paths = z.array(z.string());

// Loose: Claude Code's keys cairn does not use yet (ignoreViolations, allowUnixSockets...) are kept, not refused.
const LayerSchema = z.looseObject({
  enabled: z.boolean().optional(),
  autoAllowBashIfSandboxed: z.boolean().optional(),
  excludedCommands: z.array(z.string()).optional(),
  allowUnsandboxedCommands: z.boolean().optional(),
  failIfUnavailable: z.boolean().optional(),
  network: z
    .looseObject({
      allowedDomains: z.array(z.string()).optional(),
      /** cairn's: the host network as is, no proxy. */
      allowAll: z.boolean().optional(),
      /** Claude Code's: commands may make Unix sockets (and so reach any host service's socket they can see). */
      allowAllUnixSockets: z.boolean().optional(),
    })
    .optional(),
  filesystem: z
    .looseObject({
      allowWrite: paths.optional(),
      denyWrite: paths.optional(),
      denyRead: paths.optional(),
    })
    .optional(),
});

export interface SandboxSettings {
  /**
   * Every command runs in the sandbox (Claude Code's `sandbox.enabled: true`). On by default where
   * the sandbox can run: a command it contains runs without asking (autoAllowBashIfSandboxed).
   */
  enabled: boolean;
  /** No settings file and no flag chose `enabled`: it is the default, and falls back quietly where the sandbox cannot run. */
  enabledByDefault?: boolean;
  /**
   * Commands that run without the user's yes (the read-only fast path, a rule, a mode, a hook) run in
   * the sandbox where it is available. On unless `sandbox.enabled` is false in the user's settings
   * (or `--no-sandbox`): the bash analysis must never be the only thing between the model and the machine.
   */
  containUnasked: boolean;
  autoAllowBashIfSandboxed: boolean;
  excludedCommands: string[];
  allowUnsandboxedCommands: boolean;
  failIfUnavailable: boolean;
  /** allowAllUnixSockets: the seccomp filter that refuses Unix sockets is not loaded for what the workspace profile runs. */
  network: { allowedDomains: string[]; allowAll: boolean; allowAllUnixSockets?: boolean };
  filesystem: { allowWrite: string[]; denyWrite: string[]; denyRead: string[] };
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = {
  enabled: true,
  containUnasked: true,
  autoAllowBashIfSandboxed: true,
  excludedCommands: [],
  allowUnsandboxedCommands: true,
  failIfUnavailable: false,
  network: { allowedDomains: [], allowAll: false },
  filesystem: { allowWrite: [], denyWrite: [], denyRead: [] },
};

/** A sandbox value that is not what the setting takes; the message names the file and the key. */
export class SandboxSettingsError extends Error {
  override name = 'SandboxSettingsError';
}

type Json = unknown;

function merge(lower: Json, higher: Json): Json {
  if (Array.isArray(lower) && Array.isArray(higher)) return [...new Set([...(lower as Json[]), ...(higher as Json[])])];
  const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(lower) && isObject(higher)) {
    const out: Record<string, Json> = { ...lower };
    for (const [k, v] of Object.entries(higher)) out[k] = k in out ? merge(out[k], v) : v;
    return out;
  }
  return higher;
}

/** Checks one layer's `sandbox` value; throws naming the file and key. */
function checkLayer(layer: Pick<SettingsLayer, 'file' | 'data'>): Record<string, Json> | undefined {
  const raw = layer.data['sandbox'];
  if (raw === undefined) return undefined;
  const parsed = LayerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = ['sandbox', ...(issue?.path ?? []).map(String)].join('.');
    throw new SandboxSettingsError(`${layer.file}: ${key}: ${issue?.message ?? 'invalid value'}`);
  }
  return parsed.data;
}

/** The sandbox settings in force, folded from every layer (lowest precedence first) over the defaults. */
export function sandboxSettingsFrom(layers: readonly Pick<SettingsLayer, 'file' | 'data'>[]): SandboxSettings {
  let folded: Json = {};
  for (const layer of layers) {
    const value = checkLayer(layer);
    if (value !== undefined) folded = merge(folded, value);
  }
  const s = LayerSchema.parse(folded);
  const d = DEFAULT_SANDBOX_SETTINGS;
  return {
    enabled: s.enabled ?? d.enabled,
    enabledByDefault: s.enabled === undefined,
    containUnasked: s.enabled !== false,
    autoAllowBashIfSandboxed: s.autoAllowBashIfSandboxed ?? d.autoAllowBashIfSandboxed,
    excludedCommands: s.excludedCommands ?? [],
    allowUnsandboxedCommands: s.allowUnsandboxedCommands ?? d.allowUnsandboxedCommands,
    failIfUnavailable: s.failIfUnavailable ?? d.failIfUnavailable,
    network: {
      allowedDomains: s.network?.allowedDomains ?? [],
      allowAll: s.network?.allowAll ?? false,
      ...(s.network?.allowAllUnixSockets === true ? { allowAllUnixSockets: true } : {}),
    },
    filesystem: {
      allowWrite: s.filesystem?.allowWrite ?? [],
      denyWrite: s.filesystem?.denyWrite ?? [],
      denyRead: s.filesystem?.denyRead ?? [],
    },
  };
}
