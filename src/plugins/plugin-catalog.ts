// Every plugin the user can see: installed ones (cairn's and Claude Code's), with whether they are
// enabled and what they hold, then the added marketplaces' plugins not installed yet.
import { claudeHomeFrom, readSettingsLayers } from '../settings/settings-layers.js';
import { layersInForce } from '../settings/trusted-layers.js';
import { errorMessage } from '../util/error-message.js';
import { enabledPluginsFrom } from './active-plugins.js';
import { extraMarketplaces } from './extra-marketplaces.js';
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
  /**
   * A marketplace a settings file names (extraKnownMarketplaces) that is not added yet: the file.
   * Installing the plugin adds it first. `name` is empty for a row standing for the whole
   * marketplace (one fetched with git: its plugins are known once it is added).
   */
  notAdded?: { file: string; source: string };
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
  for (const [id, install] of await installedPlugins({ cairnHome: at.cairnHome, claudeHome, cwd: at.cwd }, problems)) {
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
  const known = await knownMarketplaces({ cairnHome: at.cairnHome, claudeHome }, problems);
  for (const [name, k] of known) {
    try {
      const market = await readMarketplace(k.installLocation);
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
  entries.push(...(await notAddedEntries(at, known, problems)));
  return { entries, problems };
}

/** The plugins of the marketplaces the settings in force name but nobody added yet (a folder's own only once it is trusted). */
async function notAddedEntries(at: { cwd: string; cairnHome: string; env: NodeJS.ProcessEnv; trusted: boolean }, known: ReadonlyMap<string, unknown>, problems: string[]): Promise<CatalogEntry[]> {
  const entries: CatalogEntry[] = [];
  const extra = await extraMarketplaces(at);
  problems.push(...extra.problems);
  for (const [name, x] of extra.marketplaces) {
    if (known.has(name)) continue;
    const source = x.source.source === 'directory' ? x.source.path : x.source.source === 'git' ? x.source.url : x.source.repo;
    const notAdded = { file: x.file, source };
    if (x.source.source !== 'directory') {
      entries.push({ id: `@${name}`, name: '', marketplace: name, description: `marketplace named in ${x.file}, from ${source}`, enabled: false, problems: [], notAdded });
      continue;
    }
    try {
      // A folder is read in place, as adding it would.
      const market = await readMarketplace(x.source.path);
      if (market.name !== name) throw new Error(`${x.file}: extraKnownMarketplaces.${name} names a marketplace called "${market.name}"; the names must match`);
      for (const p of market.plugins)
        entries.push({ id: `${p.name}@${name}`, name: p.name, marketplace: name, ...(p.description !== undefined ? { description: p.description } : {}), ...(p.version !== undefined ? { version: p.version } : {}), enabled: false, problems: [], notAdded });
    } catch (error) {
      problems.push(`marketplace ${name}: ${errorMessage(error)}`);
    }
  }
  return entries;
}
