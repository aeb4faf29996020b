// What a plugin holds, by name, for `cairn plugin list` and `/plugin`: its commands and skills (as
// typed, `/<plugin>:<name>`), agents, hook events and MCP servers.
import fs from 'node:fs/promises';
import path from 'node:path';
import { discoverCommands } from '../custom-commands/command-discovery.js';
import { discoverSkills } from '../skills/skill-discovery.js';
import type { LoadedPlugin } from './plugin.js';

export interface PluginContents {
  commands: string[];
  skills: string[];
  agents: string[];
  hooks: string[];
  mcpServers: string[];
}

async function agentNames(plugin: LoadedPlugin): Promise<string[]> {
  const out: string[] = [];
  for (const dir of plugin.agentPaths) {
    const names = await fs.readdir(dir, { recursive: true }).catch(() => []);
    for (const n of names.map(String)) if (n.endsWith('.md') && path.basename(n).toLowerCase() !== 'readme.md') out.push(`${plugin.name}:${path.basename(n, '.md')}`);
  }
  return out;
}

export async function pluginContents(plugin: LoadedPlugin): Promise<PluginContents> {
  const places = (paths: string[]) => paths.map((dir) => ({ source: 'plugin' as const, dir, namespace: plugin.name }));
  const [commands, skills, agents] = await Promise.all([discoverCommands(places(plugin.commandPaths)), discoverSkills(places(plugin.skillPaths)), agentNames(plugin)]);
  return {
    commands: commands.commands.map((c) => `/${c.name}`),
    skills: skills.skills.map((s) => `/${s.name}`),
    agents,
    hooks: [...new Set(plugin.hooks.map((h) => h.event))],
    mcpServers: plugin.mcpServers.map((s) => s.name),
  };
}

/** `2 commands (/fmt:greet, /fmt:check), 1 hook (PreToolUse), ...`: the parts it has, in one line. */
export function describeContents(c: PluginContents): string {
  const part = (n: string[], one: string, many: string): string[] => (n.length === 0 ? [] : [`${n.length} ${n.length === 1 ? one : many} (${n.join(', ')})`]);
  const parts = [
    ...part(c.commands, 'command', 'commands'),
    ...part(c.skills, 'skill', 'skills'),
    ...part(c.agents, 'agent', 'agents'),
    ...part(c.hooks, 'hook event', 'hook events'),
    ...part(c.mcpServers, 'MCP server', 'MCP servers'),
  ];
  return parts.length > 0 ? parts.join('; ') : 'nothing cairn loads';
}
