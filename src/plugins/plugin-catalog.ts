// Every plugin the user can see: installed ones (cairn's and Claude Code's), with whether they are
// enabled and what they hold, then the added marketplaces' plugins not installed yet.
import { claudeHomeFrom, readSettingsLayers } from '../settings/settings-layers.js';
import { layersInForce } from '../settings/trusted-layers.js';
import { errorMessage } from '../util/error-message.js';
import { enabledPluginsFrom } from './active-plugins.js';
import { readMarketplace } from './marketplace.js';
import { pluginContents, type PluginContents } from './plugin-contents.js';
import { loadPlugin } from './plugin-load.js';
import { installedPlugins, knownMarketplaces } from './plugin-store.js';

export interface CatalogEntry {
  id: string;
  name: string;
  marketplace: string;
  description?: string;
  version?: string;
  /** Where it is installed; absent for a marketplace's plugin not installed. */
  installed?: { path: string; by: 'cairn' | 'claude' };
  enabled: boolean;
  /** The settings file whose `enabledPlugins` switches it. */
  switchedIn?: string;
  contents?: PluginContents;
  /** Why it cannot load, naming the file. */
  problems: string[];
}

export interface PluginCatalog {
  entries: CatalogEntry[];
  problems: string[];
}

export async function pluginCatalog(at: { cwd: string; cairnHome: string; env: NodeJS.ProcessEnv; trusted: boolean }): Promise<PluginCatalog> {
  const problems: string[] = [];
  const claudeHome = claudeHomeFrom(at.env);
  let switches = new Map<string, { enabled: boolean; file: string }>();
  try {
    const layers = layersInForce((await readSettingsLayers({ workspace: at.cwd, cairnHome: at.cairnHome, claudeHome })).layers, at.trusted).layers;
    switches = enabledPluginsFrom(layers, problems);
  } catch (error) {
    problems.push(errorMessage(error));
  }
  const entries: CatalogEntry[] = [];
  for (const [id, install] of await installedPlugins({ cairnHome: at.cairnHome, claudeHome }, problems)) {
    const [name = id, marketplace = ''] = id.split('@');
    const loaded = await loadPlugin(install.installPath, id, at.env);
    const s = switches.get(id);
    entries.push({
      id,
      name,
      marketplace,
      ...(loaded.plugin?.description !== undefined ? { description: loaded.plugin.description } : {}),
      ...((loaded.plugin?.version ?? install.version) !== undefined ? { version: loaded.plugin?.version ?? install.version } : {}),
      installed: { path: install.installPath, by: install.from },
      enabled: s?.enabled === true,
      ...(s ? { switchedIn: s.file } : {}),
      ...(loaded.plugin ? { contents: await pluginContents(loaded.plugin) } : {}),
      problems: loaded.problems,
    });
  }
  for (const [name, known] of await knownMarketplaces({ cairnHome: at.cairnHome, claudeHome }, problems)) {
    try {
      const market = await readMarketplace(known.installLocation);
      problems.push(...market.problems);
      for (const p of market.plugins) {
        const id = `${p.name}@${name}`;
        if (entries.some((e) => e.id === id)) continue;
        entries.push({ id, name: p.name, marketplace: name, ...(p.description !== undefined ? { description: p.description } : {}), ...(p.version !== undefined ? { version: p.version } : {}), enabled: false, problems: [] });
      }
    } catch (error) {
      problems.push(`marketplace ${name}: ${errorMessage(error)}`);
    }
  }
  return { entries, problems };
}
