// One plugin's folder into what cairn's loaders take: the default component folders (commands/,
// agents/, skills/, hooks/hooks.json, .mcp.json) plus the manifest's custom paths, with
// `${CLAUDE_PLUGIN_ROOT}` set for its hooks and expanded in its MCP servers. Every problem names
// the plugin and the file; a plugin whose manifest cannot be used is not loaded, the rest are.
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseSettingsHooks } from '../hooks/hook-config.js';
import type { HookDefinition } from '../hooks/hook-types.js';
import { parseServers, type McpServerEntry } from '../mcp/mcp-config.js';
import { readSettingsJson } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';
import { readPluginManifest } from './plugin-manifest.js';
import type { LoadedPlugin } from './plugin.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function exists(p: string): Promise<boolean> {
  try {
    await fs.stat(p);
    return true;
  } catch {
    return false;
  }
}

/** `fmt@team`'s server `db` is `plugin_fmt_db`, as Claude Code names it (tools `mcp__plugin_fmt_db__query`). */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`.replace(/[^A-Za-z0-9_-]/g, '-').replace(/_{2,}/g, '_');
}

export interface PluginLoadResult {
  plugin?: LoadedPlugin;
  /** Each names the plugin and the file. */
  problems: string[];
}

/**
 * Reads the plugin at `root`. `id` is `name@marketplace` (or a bare name); the manifest's name
 * wins for the namespace, as in Claude Code. `env` is the session's, for `${VAR}` in MCP configs.
 */
export async function loadPlugin(root: string, id: string, env: NodeJS.ProcessEnv): Promise<PluginLoadResult> {
  const problems: string[] = [];
  const [fallbackName, marketplace] = id.split('@');
  const label = `plugin ${id}`;
  if (!(await exists(root))) return { problems: [`${label}: its folder ${root} does not exist (uninstalled or moved); not loaded. Install it again with cairn plugin install ${id}`] };
  const manifestProblems: string[] = [];
  const manifest = await readPluginManifest(root, fallbackName ?? path.basename(root), manifestProblems);
  problems.push(...manifestProblems.map((p) => `${label}: ${p}`));
  if ('problem' in manifest) return { problems: [...problems, `${label}: ${manifest.problem}; the plugin is not loaded`] };

  // Custom paths the manifest names must be there; a missing default folder is just a plugin without that part.
  const declared = async (paths: string[], key: string): Promise<string[]> => {
    const out: string[] = [];
    for (const p of paths) {
      if (await exists(p)) out.push(p);
      else problems.push(`${label}: ${path.join(root, '.claude-plugin', 'plugin.json')}: "${key}": ${path.relative(root, p) || p} does not exist; passed over`);
    }
    return out;
  };
  const withDefault = async (folder: string, paths: string[], key: string): Promise<string[]> => [...new Set([path.join(root, folder), ...(await declared(paths, key))])];

  const pluginEnv = { CLAUDE_PLUGIN_ROOT: root };
  const hooks: HookDefinition[] = [];
  const hookSources: (string | Record<string, unknown>)[] = [path.join(root, 'hooks', 'hooks.json'), ...manifest.hooks];
  for (const source of hookSources) {
    if (typeof source === 'string' && !(await exists(source))) {
      if (source !== hookSources[0]) problems.push(`${label}: hooks file ${source} does not exist; its hooks are not loaded`);
      continue;
    }
    let value: unknown = source;
    const where = typeof source === 'string' ? `${label}: ${source}` : `${label}: ${path.join(root, '.claude-plugin', 'plugin.json')} "hooks"`;
    if (typeof source === 'string') {
      try {
        value = await readSettingsJson(source);
      } catch (error) {
        problems.push(`${label}: ${errorMessage(error)}; its hooks are not loaded`);
        continue;
      }
    }
    // hooks.json is `{"description"?, "hooks": {Event: [...]}}`; an inline object may be the events themselves.
    const events = isObject(value) && isObject(value['hooks']) ? value['hooks'] : value;
    const parsed = parseSettingsHooks(events, where, { origin: label });
    problems.push(...parsed.problems);
    hooks.push(...parsed.hooks.map((h) => ({ ...h, env: pluginEnv })));
  }

  const mcpServers: McpServerEntry[] = [];
  const expandEnv = { ...env, ...pluginEnv };
  const mcpSources: (string | Record<string, unknown>)[] = [path.join(root, '.mcp.json'), ...manifest.mcpServers];
  for (const source of mcpSources) {
    if (typeof source === 'string' && !(await exists(source))) {
      if (source !== mcpSources[0]) problems.push(`${label}: MCP file ${source} does not exist; its servers are not started`);
      continue;
    }
    let value: unknown = source;
    const where = typeof source === 'string' ? `${label}: ${source}` : `${label}: ${path.join(root, '.claude-plugin', 'plugin.json')} "mcpServers"`;
    if (typeof source === 'string') {
      try {
        value = await readSettingsJson(source);
      } catch (error) {
        problems.push(`${label}: ${errorMessage(error)}; its MCP servers are not started`);
        continue;
      }
    }
    // A .mcp.json wraps them in "mcpServers"; the manifest may give the servers object itself.
    const servers = isObject(value) && isObject(value['mcpServers']) ? value['mcpServers'] : value;
    for (const entry of parseServers(servers, 'user', where, expandEnv, problems)) {
      const config = entry.config.transport === 'stdio' ? { ...entry.config, env: { ...pluginEnv, ...entry.config.env } } : entry.config;
      mcpServers.push({ ...entry, name: pluginServerName(manifest.name, entry.name), config });
    }
  }

  return {
    problems,
    plugin: {
      id,
      name: manifest.name,
      ...(marketplace ? { marketplace } : {}),
      root,
      ...(manifest.version !== undefined ? { version: manifest.version } : {}),
      ...(manifest.description !== undefined ? { description: manifest.description } : {}),
      ...(manifest.author !== undefined ? { author: manifest.author } : {}),
      commandPaths: await withDefault('commands', manifest.commands, 'commands'),
      agentPaths: await withDefault('agents', manifest.agents, 'agents'),
      skillPaths: await withDefault('skills', manifest.skills, 'skills'),
      hooks,
      mcpServers,
    },
  };
}
