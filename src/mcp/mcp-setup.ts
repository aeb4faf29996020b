// What createRuntime calls: reads the configuration and builds the manager, without starting any
// server (the caller starts them in the background; start() itself waits out the current task, so a
// first frame drawn in it comes first).
import { claudeHomeFrom, readSettingsLayers, type SettingsLayer } from '../settings/settings-layers.js';
import type { EventOf } from '../events.js';
import type { AnyTool } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';
import { loadMcpConfig } from './mcp-config.js';
import { activePlugins } from '../plugins/active-plugins.js';
import type { McpServerStatus } from './mcp-connection.js';
import type { McpManager } from './mcp-manager.js';
import type { McpProjectChoices } from './mcp-project-choices.js';
import { createLazyMcpManager } from './lazy-mcp-manager.js';
import { mcpTimeouts } from './mcp-timeouts.js';

export interface McpSetupOptions {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  trusted: boolean;
  /** The user's answers about the project's servers. */
  choices?: McpProjectChoices;
  /** --mcp-config values. */
  flagConfigs?: readonly string[];
  tools: AnyTool[];
  onStatus: (servers: readonly McpServerStatus[]) => void;
}

/** No manager when no server is configured: the SDK is then never loaded. */
export async function setUpMcp(options: McpSetupOptions): Promise<{ manager: McpManager | undefined; problems: string[] }> {
  const problems: string[] = [];
  let layers: SettingsLayer[] = [];
  try {
    layers = (await readSettingsLayers({ workspace: options.cwd, cairnHome: options.cairnHome, claudeHome: claudeHomeFrom(options.env) })).layers;
  } catch (err) {
    // The permission loader has already refused to start over a broken settings file; say it here too.
    problems.push(`MCP: ${errorMessage(err)}`);
  }
  const config = await loadMcpConfig({
    workspace: options.cwd,
    cairnHome: options.cairnHome,
    layers,
    env: options.env,
    ...(options.flagConfigs ? { flagConfigs: options.flagConfigs } : {}),
  });
  problems.push(...config.problems);
  // The enabled plugins' servers, named plugin_<plugin>_<server> (their problems are told by the plugin loader).
  const plugins = (await activePlugins({ cwd: options.cwd, cairnHome: options.cairnHome, env: options.env, trusted: options.trusted })).plugins;
  for (const server of plugins.flatMap((p) => p.mcpServers)) if (!config.servers.some((s) => s.name === server.name)) config.servers.push(server);
  if (config.servers.length === 0) return { manager: undefined, problems };
  problems.push(...mcpTimeouts(options.env).problems);
  // The SDK loads when the servers start, after the first frame (lazy-mcp-manager.ts).
  const manager = createLazyMcpManager({ config, layers, trusted: options.trusted, ...(options.choices ? { choices: options.choices } : {}), env: options.env, cwd: options.cwd, tools: options.tools, onStatus: options.onStatus });
  return { manager, problems };
}

/** The event the screen counts servers from. */
export function mcpServersEvent(servers: readonly McpServerStatus[]): EventOf<'mcp_servers'> {
  return {
    type: 'mcp_servers',
    servers: servers.map((s) => ({ name: s.name, state: s.state, tools: s.tools.length, ...(s.error !== undefined ? { error: s.error } : {}) })),
  };
}

/** Headless runs wait for the servers; each one that did not connect is told on stderr. */
export function mcpStartupProblems(servers: readonly McpServerStatus[]): string[] {
  const out: string[] = [];
  for (const s of servers) {
    if (s.state === 'failed' || s.state === 'pending') out.push(`MCP server "${s.name}" ${s.state === 'failed' ? 'failed' : 'not started'}: ${s.error ?? ''}`);
    for (const skipped of s.skipped) out.push(`MCP server "${s.name}": ${skipped}`);
  }
  return out;
}
