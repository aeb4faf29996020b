// A marketplace entry's own component fields (`commands`, `agents`, `skills`, `hooks`,
// `mcpServers`), as Claude Code's marketplace reference gives them. With `strict: false` the entry
// is the plugin's whole definition and its folder needs no `.claude-plugin/plugin.json` (one that
// declares components as well is a conflict); with `strict` (the default) the entry's fields add to
// the plugin.json's. cairn writes the result as the plugin.json of its installed copy, so the copy
// loads as any plugin does. Paths stay inside the plugin's folder: `../` and absolute paths are refused.
import fs from 'node:fs/promises';
import path from 'node:path';
import { readSettingsJson } from '../settings/settings-layers.js';
import { MANIFEST_FILE } from './plugin-manifest.js';

export const COMPONENT_KEYS = ['commands', 'agents', 'skills', 'hooks', 'mcpServers'] as const;
type ComponentKey = (typeof COMPONENT_KEYS)[number];
export type EntryComponents = Partial<Record<ComponentKey, unknown>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a path in an entry cannot be used, or undefined when it stays inside the plugin's folder. */
function pathProblem(value: string): string | undefined {
  if (path.isAbsolute(value) || /^[A-Za-z]:[\\/]/.test(value)) return 'is an absolute path; paths are relative to the plugin\'s folder ("./...")';
  const normal = path.normalize(value.replaceAll('\\', '/'));
  if (normal === '..' || normal.startsWith(`..${path.sep}`)) return "leaves the plugin's folder";
  return undefined;
}

/**
 * The entry's component fields, checked. Resolves `{ components }`, or `{ problem }` naming the
 * field and value (the caller adds the marketplace and plugin) when one cannot be used.
 */
export function entryComponents(entry: Record<string, unknown>): { components: EntryComponents } | { problem: string } {
  const components: EntryComponents = {};
  for (const key of COMPONENT_KEYS) {
    const value = entry[key];
    if (value === undefined) continue;
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item === 'string') {
        const problem = pathProblem(item);
        if (problem) return { problem: `"${key}": ${JSON.stringify(item)} ${problem}` };
      } else if (!(isObject(item) && (key === 'hooks' || key === 'mcpServers'))) {
        return { problem: `"${key}" must be a path, a list of paths${key === 'hooks' || key === 'mcpServers' ? ' or an object' : ''}; got ${JSON.stringify(item)}` };
      }
    }
    components[key] = value;
  }
  return { components };
}

const asList = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/**
 * Writes the plugin.json of an installed copy at `root` from its marketplace entry. `label` is
 * `marketplace <m>: plugin <p>`. Throws naming both files on a strict:false conflict.
 */
export async function applyEntryManifest(
  root: string,
  entry: { name: string; version?: string; description?: string; strict: boolean; components: EntryComponents },
  label: string,
): Promise<void> {
  const file = path.join(root, MANIFEST_FILE);
  const declared = Object.keys(entry.components).length > 0;
  if (entry.strict && !declared) return;
  const existing = await readSettingsJson(file).catch((error: unknown) => {
    throw new Error(`${label}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  });
  if (existing !== undefined && !isObject(existing)) throw new Error(`${label}: ${MANIFEST_FILE} in the plugin: expected a JSON object`);
  const manifest: Record<string, unknown> = { name: entry.name, ...(entry.version ? { version: entry.version } : {}), ...(entry.description ? { description: entry.description } : {}), ...existing };
  if (!entry.strict) {
    const clash = COMPONENT_KEYS.filter((k) => existing?.[k] !== undefined);
    if (clash.length > 0)
      throw new Error(`${label}: the entry has "strict": false (the marketplace entry defines the plugin) but the plugin's ${MANIFEST_FILE} also declares ${clash.map((k) => `"${k}"`).join(', ')}; remove them from one of the two`);
    Object.assign(manifest, entry.components);
  } else {
    // strict: the entry's paths add to the manifest's.
    for (const key of COMPONENT_KEYS) if (entry.components[key] !== undefined) manifest[key] = [...asList(existing?.[key]), ...asList(entry.components[key])];
  }
  // The copy is the plugin's own files: a .claude-plugin that is a link could point anywhere.
  const dir = path.dirname(file);
  if ((await fs.lstat(dir).catch(() => undefined))?.isSymbolicLink()) throw new Error(`${label}: ${path.dirname(MANIFEST_FILE)} in the plugin is a symbolic link; refused`);
  await fs.mkdir(dir, { recursive: true });
  await fs.rm(file, { force: true });
  await fs.writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
}
