import { join } from 'node:path';
import * as z from 'zod';
import { FileReadError, readTextFileSync } from '../util/read-text-file.js';
import { PROVIDER_PRESETS } from './presets.js';
import type { ProviderPreset } from './presets.js';

/** A configuration problem the user must fix before cairn starts; names the file and field. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

const ProviderEntrySchema = z.strictObject({
  api: z.enum(['anthropic', 'openai', 'offline']).optional(),
  baseUrl: z.url().optional(),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')
    .optional(),
  defaultModel: z.string().min(1).optional(),
  contextWindow: z.number().int().positive().optional(),
});

const ThinkingSchema = z.strictObject({
  enabled: z.boolean(),
  budgetTokens: z.number().int().min(1024).default(8000),
});

// Loose at the top: other parts of cairn keep their own settings in the same file.
const ProviderConfigSchema = z.looseObject({
  defaultProvider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  thinking: ThinkingSchema.optional(),
  streamIdleTimeoutSeconds: z.number().positive().max(3600).optional(),
  providers: z.record(z.string().min(1), ProviderEntrySchema).optional(),
});

export type ThinkingConfig = z.infer<typeof ThinkingSchema>;

export interface ProviderConfig {
  file: string;
  exists: boolean;
  defaultProvider?: string;
  model?: string;
  thinking?: ThinkingConfig;
  /** How long a model stream may go without an event before the attempt is dropped and retried. */
  streamIdleTimeoutSeconds?: number;
  /** Presets merged with the file's `providers` (an entry for a preset name overrides its fields). */
  providers: Record<string, ProviderPreset>;
  /** Names defined or overridden by the file, for --list-providers. */
  fromFile: string[];
}

export function configPath(cairnHome: string): string {
  return join(cairnHome, 'config.json');
}

/** Reads and validates `$CAIRN_HOME/config.json`; a missing file is an empty config. */
export function loadProviderConfig(cairnHome: string): ProviderConfig {
  const file = configPath(cairnHome);
  // A FIFO or device is never opened (start-up would hang); a BOM is dropped. A config that
  // exists but cannot be read stops start-up: guessing the provider could send code elsewhere.
  let text: string | undefined;
  try {
    text = readTextFileSync(file);
  } catch (err) {
    if (err instanceof FileReadError) throw new ConfigError(err.message);
    throw err;
  }
  if (text === undefined) return { file, exists: false, providers: { ...PROVIDER_PRESETS }, fromFile: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file}: not valid JSON: ${(err as Error).message}`);
  }
  const parsed = ProviderConfigSchema.safeParse(json);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const field = issue.path.map(String).join('.') || '(top level)';
      return `${file}: ${field}: ${issue.message}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  const data = parsed.data;
  const providers: Record<string, ProviderPreset> = { ...PROVIDER_PRESETS };
  for (const [name, entry] of Object.entries(data.providers ?? {})) {
    providers[name] = mergeEntry(file, name, providers[name], entry);
  }
  if (data.defaultProvider !== undefined && !providers[data.defaultProvider]) {
    throw new ConfigError(
      `${file}: defaultProvider: unknown provider '${data.defaultProvider}' (known: ${Object.keys(providers).join(', ')})`,
    );
  }
  const config: ProviderConfig = { file, exists: true, providers, fromFile: Object.keys(data.providers ?? {}) };
  if (data.defaultProvider !== undefined) config.defaultProvider = data.defaultProvider;
  if (data.model !== undefined) config.model = data.model;
  if (data.thinking !== undefined) config.thinking = data.thinking;
  if (data.streamIdleTimeoutSeconds !== undefined) config.streamIdleTimeoutSeconds = data.streamIdleTimeoutSeconds;
  return config;
}

function mergeEntry(
  file: string,
  name: string,
  base: ProviderPreset | undefined,
  entry: z.infer<typeof ProviderEntrySchema>,
): ProviderPreset {
  const api = entry.api ?? base?.api;
  const baseUrl = entry.baseUrl ?? base?.baseUrl;
  const defaultModel = entry.defaultModel ?? base?.defaultModel ?? (api === 'offline' ? 'offline' : undefined);
  const missing = (field: string): ConfigError =>
    new ConfigError(`${file}: providers.${name}.${field}: required for a provider that is not built in`);
  if (api === undefined) throw missing('api');
  if (baseUrl === undefined && api !== 'offline') throw missing('baseUrl');
  if (defaultModel === undefined) throw missing('defaultModel');
  const merged: ProviderPreset = {
    api,
    baseUrl: baseUrl ?? '',
    defaultModel,
    contextWindow: entry.contextWindow ?? base?.contextWindow ?? 128_000,
  };
  const apiKeyEnv = entry.apiKeyEnv ?? base?.apiKeyEnv;
  if (apiKeyEnv !== undefined) merged.apiKeyEnv = apiKeyEnv;
  return merged;
}
