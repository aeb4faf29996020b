import type { HookDefinition } from '../hooks/hook-types.js';
import type { McpServerEntry } from '../mcp/mcp-config.js';

/** A plugin read from its folder: what each of cairn's loaders takes from it. */
export interface LoadedPlugin {
  /** `name@marketplace`, or the bare name of a plugin that came from no marketplace. */
  id: string;
  name: string;
  marketplace?: string;
  /** The plugin's folder (`${CLAUDE_PLUGIN_ROOT}`). */
  root: string;
  version?: string;
  description?: string;
  author?: string;
  /** Folders (or single `.md` files) of commands, agents and skills, absolute; each may not exist. */
  commandPaths: string[];
  agentPaths: string[];
  skillPaths: string[];
  hooks: HookDefinition[];
  mcpServers: McpServerEntry[];
}

/** One line naming the plugin, for messages: `fmt@team-tools (/path/to/plugin)`. */
export function pluginLabel(plugin: Pick<LoadedPlugin, 'id' | 'root'>): string {
  return `plugin ${plugin.id} (${plugin.root})`;
}
