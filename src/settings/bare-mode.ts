// --bare (Claude Code's flag for scripted runs): nothing is discovered, only what the command line
// passes is used. No hooks, MCP servers, plugins, skills, commands, agents, instruction files
// (CLAUDE.md, AGENTS.md, rules) or memory are read from the user's or the project's folders;
// --settings, --mcp-config, --plugin-dir, --agents and --append-system-prompt still add theirs.
// The settings files' permission rules still hold: bare never widens what runs unasked.
import type { SettingsLayer } from './settings-layers.js';

/** The command line's layer carries --bare under this key; a settings file's own value is never read. */
export const BARE_KEY = '--bare';

/** Whether the command line asked for --bare (only its layer can say so). */
export function isBare(layers: readonly SettingsLayer[]): boolean {
  return layers.some((l) => l.commandLine === true && l.data[BARE_KEY] === true);
}

/** The layers whose hooks, MCP servers and plugins are used: only the command line's with --bare. */
export function discoveredLayers<T extends SettingsLayer>(layers: readonly T[]): T[] {
  return isBare(layers) ? layers.filter((l) => l.commandLine === true) : [...layers];
}
