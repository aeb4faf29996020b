// The public face of provider selection: presets, the config file, resolution and construction.
// Callers import from here; the pieces live in their own modules.
export { PROVIDER_PRESETS, BASE_URL_ENV, KEY_DETECTION_ORDER } from './presets.js';
export type { ProviderApi, ProviderPreset } from './presets.js';
export { ConfigError, configPath, loadProviderConfig } from './config.js';
export type { ProviderConfig, ThinkingConfig } from './config.js';
export { resolveProvider, listProviders } from './resolve.js';
export type { ResolveInput, ResolvedProvider } from './resolve.js';
export { createProvider } from './create.js';
export type { CreateProviderDeps } from './create.js';
