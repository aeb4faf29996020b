// The plugins in force for a session: `enabledPlugins` from every settings layer (user, project,
// local; a later layer wins per plugin), resolved to the folder each is installed in (cairn's
// record first, then Claude Code's), each read by loadPlugin. A folder's own settings may enable a
// plugin only once the folder is trusted (trusted-layers.ts withholds `enabledPlugins` until then,
// and the trust question names it).
import path from 'node:path';
import { claudeHomeFrom, readSettingsLayers, type SettingsLayer } from '../settings/settings-layers.js';
import { layersInForce } from '../settings/trusted-layers.js';
import { discoveredLayers } from '../settings/bare-mode.js';
import { errorMessage } from '../util/error-message.js';
import { loadPlugin } from './plugin-load.js';
import { installedPlugins } from './plugin-store.js';
import type { LoadedPlugin } from './plugin.js';

/** The command line's layer carries --plugin-dir under this key; a settings file's own value is never read. */
export const PLUGIN_DIRS_KEY = '--plugin-dir';

/** The folders --plugin-dir named (only the command line's layer can hold them). */
function pluginDirsFrom(layers: readonly SettingsLayer[]): string[] {
  return layers.flatMap((l) => {
    const dirs = l.commandLine === true ? l.data[PLUGIN_DIRS_KEY] : undefined;
    return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string') : [];
  });
}

export interface PluginSwitch {
  id: string;
  enabled: boolean;
  /** The settings file that decided it. */
  file: string;
}

/** `enabledPlugins` folded over the layers: `{"fmt@team": true}` per file, the more specific file winning per plugin. */
export function enabledPluginsFrom(layers: readonly SettingsLayer[], problems: string[]): Map<string, PluginSwitch> {
  const out = new Map<string, PluginSwitch>();
  for (const layer of layers) {
    const value = layer.data['enabledPlugins'];
    if (value === undefined) continue;
    // An older shape lists the enabled ids.
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((id): [string, unknown] => [String(id), true]) : typeof value === 'object' && value !== null ? Object.entries(value) : [];
    if (entries.length === 0 && (typeof value !== 'object' || value === null)) problems.push(`${layer.file}: enabledPlugins: expected {"<plugin>@<marketplace>": true}; not used`);
    for (const [id, on] of entries) {
      if (typeof on !== 'boolean') {
        problems.push(`${layer.file}: enabledPlugins.${id}: expected true or false; not used`);
        continue;
      }
      out.set(id, { id, enabled: on, file: layer.file });
    }
  }
  return out;
}

export interface ActivePluginsOptions {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  /** Whether the workspace is trusted: its settings may enable plugins only then. */
  trusted: boolean;
}

export interface ActivePlugins {
  plugins: LoadedPlugin[];
  /** Each names the plugin and the file; the other plugins still load. */
  problems: string[];
  /** Every plugin a settings file switches, on or off. */
  switches: PluginSwitch[];
}

export async function activePlugins(opts: ActivePluginsOptions): Promise<ActivePlugins> {
  const problems: string[] = [];
  const claudeHome = claudeHomeFrom(opts.env);
  let layers: SettingsLayer[];
  try {
    layers = layersInForce((await readSettingsLayers({ workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome })).layers, opts.trusted).layers;
  } catch (error) {
    return { plugins: [], problems: [`plugins: ${errorMessage(error)}; no plugin is loaded`], switches: [] };
  }
  const switches = enabledPluginsFrom(discoveredLayers(layers), problems);
  const wanted = [...switches.values()].filter((s) => s.enabled);
  // --plugin-dir: loaded for this session as they are, named after their folder until the manifest names them.
  const fromFlag = pluginDirsFrom(layers).map((dir) => ({ id: `${path.basename(dir)}@--plugin-dir`, dir }));
  if (wanted.length === 0 && fromFlag.length === 0) return { plugins: [], problems, switches: [...switches.values()] };
  const installed = wanted.length > 0 ? await installedPlugins({ cairnHome: opts.cairnHome, claudeHome, cwd: opts.cwd }, problems) : new Map<string, { installPath: string }>();
  const plugins: LoadedPlugin[] = [];
  const places: { id: string; dir?: string; file?: string }[] = [...fromFlag, ...wanted.map((s) => ({ id: s.id, file: s.file, ...(installed.get(s.id) ? { dir: installed.get(s.id)?.installPath } : {}) }))];
  for (const s of places) {
    if (s.dir === undefined) {
      problems.push(`plugin ${s.id}: enabled in ${s.file ?? 'settings'} but not installed; install it with cairn plugin install ${s.id}`);
      continue;
    }
    const loaded = await loadPlugin(s.dir, s.id, opts.env);
    problems.push(...loaded.problems);
    if (!loaded.plugin) continue;
    const clash = plugins.find((p) => p.name === loaded.plugin?.name);
    if (clash) {
      problems.push(`plugin ${s.id}: its name "${loaded.plugin.name}" is taken by plugin ${clash.id}; not loaded (disable one of them)`);
      continue;
    }
    plugins.push(loaded.plugin);
  }
  return { plugins, problems, switches: [...switches.values()] };
}
