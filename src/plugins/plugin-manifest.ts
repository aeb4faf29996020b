// A plugin's `.claude-plugin/plugin.json`, as Claude Code documents it: metadata (name, version,
// description, author...) and, optionally, where its components are when they are not (only) in
// the default folders. The manifest is optional: without one the plugin is its folder's defaults.
import path from 'node:path';
import { readSettingsJson } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';

export const MANIFEST_FILE = path.join('.claude-plugin', 'plugin.json');

/** Plugin names, as Claude Code takes them: kebab-case, no spaces (they become `/<name>:<command>`). */
export const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface PluginManifest {
  name: string;
  version?: string;
  description?: string;
  author?: string;
  /** Extra component paths (absolute, inside the plugin), in addition to the default folders. */
  commands: string[];
  agents: string[];
  skills: string[];
  /** Hook files (absolute) and hook objects written inline in the manifest. */
  hooks: (string | Record<string, unknown>)[];
  /** MCP files (absolute) and `mcpServers` objects written inline. */
  mcpServers: (string | Record<string, unknown>)[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the manifest of the plugin at `root`. `fallbackName` names a plugin without one (the
 * marketplace entry's name, or the folder's). Problems that leave the plugin usable (a custom path
 * outside the plugin, a field of the wrong type) are pushed and that field is passed over; a
 * manifest that cannot be used at all (invalid JSON, no name) is `{ problem }`.
 */
export async function readPluginManifest(root: string, fallbackName: string, problems: string[]): Promise<PluginManifest | { problem: string }> {
  const file = path.join(root, MANIFEST_FILE);
  let data: unknown;
  try {
    data = await readSettingsJson(file);
  } catch (error) {
    return { problem: errorMessage(error) };
  }
  const manifest: PluginManifest = { name: fallbackName, commands: [], agents: [], skills: [], hooks: [], mcpServers: [] };
  if (data === undefined) return manifest;
  if (!isObject(data)) return { problem: `${file}: expected a JSON object` };
  const name = data['name'];
  if (typeof name !== 'string' || !PLUGIN_NAME.test(name)) return { problem: `${file}: "name" must be the plugin's name in kebab-case (letters, digits, "-", "_", "."), got ${JSON.stringify(name)}` };
  manifest.name = name;
  for (const key of ['version', 'description'] as const) {
    const value = data[key];
    if (typeof value === 'string') manifest[key] = value;
    else if (value !== undefined) problems.push(`${file}: "${key}" must be a string; ignored`);
  }
  const author = data['author'];
  if (isObject(author) && typeof author['name'] === 'string') manifest.author = author['name'];
  else if (typeof author === 'string') manifest.author = author;
  const paths = (key: 'commands' | 'agents' | 'skills'): string[] => componentPaths(root, file, key, data[key], problems);
  manifest.commands = paths('commands');
  manifest.agents = paths('agents');
  manifest.skills = paths('skills');
  manifest.hooks = pathsOrObjects(root, file, 'hooks', data['hooks'], problems);
  manifest.mcpServers = pathsOrObjects(root, file, 'mcpServers', data['mcpServers'], problems);
  return manifest;
}

/** A custom path: relative to the plugin (`./` as Claude Code writes it) and inside it, or a problem. */
function insidePlugin(root: string, file: string, key: string, value: string, problems: string[]): string | undefined {
  if (path.isAbsolute(value)) {
    problems.push(`${file}: "${key}": ${JSON.stringify(value)} must be a path relative to the plugin ("./..."); ignored`);
    return undefined;
  }
  const full = path.resolve(root, value);
  const rel = path.relative(root, full);
  if (rel.startsWith('..') || path.isAbsolute(rel)) {
    problems.push(`${file}: "${key}": ${JSON.stringify(value)} is outside the plugin's folder; ignored`);
    return undefined;
  }
  return full;
}

function componentPaths(root: string, file: string, key: string, value: unknown, problems: string[]): string[] {
  if (value === undefined) return [];
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (!list || !list.every((v) => typeof v === 'string')) {
    problems.push(`${file}: "${key}" must be a path or a list of paths; ignored`);
    return [];
  }
  return list.flatMap((v: string) => insidePlugin(root, file, key, v, problems) ?? []);
}

function pathsOrObjects(root: string, file: string, key: string, value: unknown, problems: string[]): (string | Record<string, unknown>)[] {
  if (value === undefined) return [];
  const list = Array.isArray(value) ? value : [value];
  const out: (string | Record<string, unknown>)[] = [];
  for (const item of list) {
    if (typeof item === 'string') {
      const full = insidePlugin(root, file, key, item, problems);
      if (full !== undefined) out.push(full);
    } else if (isObject(item)) out.push(item);
    else problems.push(`${file}: "${key}": expected a path or an object, got ${JSON.stringify(item)}; ignored`);
  }
  return out;
}
