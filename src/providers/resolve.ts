import { ConfigError, loadProviderConfig } from './config.js';
import type { ProviderConfig, ThinkingConfig } from './config.js';
import { BASE_URL_ENV, KEY_DETECTION_ORDER } from './presets.js';
import type { ProviderApi } from './presets.js';

export interface ResolveInput {
  flags: { provider?: string; model?: string };
  env: Readonly<Record<string, string | undefined>>;
  cairnHome: string;
}

/** OpenAI's reasoning_effort values (--effort on a reasoning model: effort.ts). */
export type ReasoningEffort = 'low' | 'medium' | 'high';

export interface ResolvedProvider {
  name: string;
  api: ProviderApi;
  model: string;
  baseUrl: string;
  apiKey?: string;
  apiKeyEnv?: string;
  contextWindow: number;
  thinking?: ThinkingConfig;
  /** --effort on an OpenAI-compatible reasoning model (effort.ts). */
  reasoningEffort?: ReasoningEffort;
  /** config.json `streamIdleTimeoutSeconds`, in ms. */
  streamIdleTimeoutMs?: number;
  /** Why this provider won, for --list-providers and the startup line. */
  source: string;
  /** Why this model. */
  modelSource: string;
}

interface Choice {
  name: string;
  source: string;
  explicit: boolean;
}

function envValue(env: ResolveInput['env'], key: string): string | undefined {
  const value = env[key];
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

function chooseProvider(input: ResolveInput, config: ProviderConfig): Choice {
  const { flags, env } = input;
  const known = (name: string, from: string): string => {
    if (config.providers[name]) return name;
    throw new ConfigError(`unknown provider '${name}' from ${from} (known: ${Object.keys(config.providers).join(', ')})`);
  };
  if (flags.provider) return { name: known(flags.provider, '--provider'), source: '--provider flag', explicit: true };
  const fromEnv = envValue(env, 'CAIRN_PROVIDER');
  if (fromEnv) return { name: known(fromEnv, 'CAIRN_PROVIDER'), source: 'CAIRN_PROVIDER', explicit: true };
  if (config.defaultProvider) {
    return { name: config.defaultProvider, source: `defaultProvider in ${config.file}`, explicit: true };
  }
  for (const name of KEY_DETECTION_ORDER) {
    const keyEnv = config.providers[name]?.apiKeyEnv;
    if (keyEnv && envValue(env, keyEnv)) return { name, source: `${keyEnv} is set`, explicit: false };
  }
  return { name: 'offline', source: 'no provider configured and no API key found', explicit: false };
}

/** Which provider and model to use, highest first: flags, CAIRN_* env, config, a key in env, offline. */
export function resolveProvider(input: ResolveInput): ResolvedProvider {
  return resolveWith(input, loadProviderConfig(input.cairnHome));
}

function resolveWith(input: ResolveInput, config: ProviderConfig): ResolvedProvider {
  const choice = chooseProvider(input, config);
  const preset = config.providers[choice.name];
  if (!preset) throw new ConfigError(`unknown provider '${choice.name}'`);

  let model = preset.defaultModel;
  let modelSource = `default for ${choice.name}`;
  const envModel = envValue(input.env, 'CAIRN_MODEL');
  if (input.flags.model) {
    model = input.flags.model;
    modelSource = '--model flag';
  } else if (envModel) {
    model = envModel;
    modelSource = 'CAIRN_MODEL';
  } else if (config.model && (config.defaultProvider === undefined || config.defaultProvider === choice.name)) {
    // The config's model belongs with its defaultProvider; it would be nonsense for another one.
    model = config.model;
    modelSource = `model in ${config.file}`;
  }

  const baseUrlEnv = BASE_URL_ENV[choice.name];
  const baseUrl = (baseUrlEnv && envValue(input.env, baseUrlEnv)) || preset.baseUrl;

  const resolved: ResolvedProvider = {
    name: choice.name,
    api: preset.api,
    model,
    baseUrl,
    contextWindow: preset.contextWindow,
    source: choice.source,
    modelSource,
  };
  if (preset.apiKeyEnv !== undefined && preset.api !== 'offline') {
    resolved.apiKeyEnv = preset.apiKeyEnv;
    const key = envValue(input.env, preset.apiKeyEnv);
    if (key === undefined) {
      throw new ConfigError(`provider '${choice.name}' (from ${choice.source}) needs an API key: set ${preset.apiKeyEnv}`);
    }
    resolved.apiKey = key;
  }
  if (config.thinking !== undefined) resolved.thinking = config.thinking;
  if (config.streamIdleTimeoutSeconds !== undefined) resolved.streamIdleTimeoutMs = Math.round(config.streamIdleTimeoutSeconds * 1000);
  return resolved;
}

/**
 * Printable lines for `cairn --list-providers`: every provider, whether its key is set, and
 * which one wins and why. A broken config file still throws: it must be fixed first.
 */
export function listProviders(input: ResolveInput): string[] {
  const config = loadProviderConfig(input.cairnHome);
  let winner: ResolvedProvider | undefined;
  let problem: string | undefined;
  try {
    winner = resolveWith(input, config);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problem = err.message;
  }
  const rows = Object.entries(config.providers).map(([name, p]) => {
    const key = p.apiKeyEnv
      ? `${p.apiKeyEnv} ${envValue(input.env, p.apiKeyEnv) ? 'set' : 'not set'}`
      : p.api === 'offline'
        ? 'no key'
        : 'no key needed';
    const baseUrlEnv = BASE_URL_ENV[name];
    const baseUrl = (baseUrlEnv && envValue(input.env, baseUrlEnv)) || p.baseUrl || '-';
    const origin = config.fromFile.includes(name) ? ' (config)' : '';
    return { mark: winner?.name === name ? '* ' : '  ', cells: [name + origin, p.api, baseUrl, p.defaultModel, key] };
  });
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => (r.cells[i] ?? '').length)));
  const lines = rows.map((r) => r.mark + r.cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
  lines.push('');
  lines.push(`config: ${config.file}${config.exists ? '' : ' (not found)'}`);
  if (winner) {
    lines.push(`using: ${winner.name} (${winner.source}), model ${winner.model} (${winner.modelSource}), ${winner.baseUrl || 'built in'}`);
  } else {
    lines.push(`error: ${problem ?? 'no provider resolved'}`);
  }
  return lines;
}
