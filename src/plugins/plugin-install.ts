// Installing a plugin from a marketplace: fetched (copied from the marketplace's folder, or cloned
// with git) into `$CAIRN_HOME/plugins/cache/<marketplace>/<plugin>/<version>/`, a copy pinned to
// the version installed, recorded in `installed_plugins.json` and enabled in the user's settings.
import fs from 'node:fs/promises';
import path from 'node:path';
import { claudeHomeFrom } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';
import { cloneRepository } from './git-fetch.js';
import { readMarketplace, refreshMarketplace, type Marketplace, type MarketplaceEntry } from './marketplace.js';
import { applyEntryManifest } from './entry-manifest.js';
import { extraMarketplaces } from './extra-marketplaces.js';
import { loadPlugin } from './plugin-load.js';
import { installedPlugins, knownMarketplaces, pluginsDir, updateInstalled, type KnownMarketplace, type Found } from './plugin-store.js';
import { setPluginEnabled } from './plugin-switch.js';

export interface PluginPlaces {
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  /** The folder the command runs in: its settings' extraKnownMarketplaces count (once it is trusted). */
  cwd?: string;
}

const claudeHome = (at: PluginPlaces): string => claudeHomeFrom(at.env);

/**
 * Adds the marketplace a settings file names in `extraKnownMarketplaces` (a folder's own settings
 * count only once the folder is trusted). Throws when no settings in force name it.
 */
export async function addNamedMarketplace(name: string, at: PluginPlaces & { cwd: string }): Promise<Marketplace> {
  const extra = (await extraMarketplaces({ cwd: at.cwd, cairnHome: at.cairnHome, env: at.env })).marketplaces.get(name);
  if (!extra) throw new Error(`no settings in force name a marketplace "${name}" in extraKnownMarketplaces (a folder's own settings count once it is trusted)`);
  const added = await refreshMarketplace(extra.source, at.cairnHome);
  if (added.name !== name) throw new Error(`extraKnownMarketplaces.${name} in ${extra.file} fetched a marketplace named "${added.name}"; the names must match`);
  return added;
}

/** `name@marketplace`, or a bare name found in exactly one known marketplace. Throws naming what is missing. */
export async function findInMarketplaces(spec: string, at: PluginPlaces): Promise<{ entry: MarketplaceEntry; market: Marketplace; known: Found<KnownMarketplace> }> {
  const [name, wanted] = spec.split('@');
  const problems: string[] = [];
  let known = await knownMarketplaces({ cairnHome: at.cairnHome, claudeHome: claudeHome(at) }, problems);
  if (wanted !== undefined && !known.has(wanted) && at.cwd !== undefined) {
    // A marketplace the settings name (extraKnownMarketplaces) is added on first use.
    if ((await extraMarketplaces({ cwd: at.cwd, cairnHome: at.cairnHome, env: at.env })).marketplaces.has(wanted)) {
      await addNamedMarketplace(wanted, { ...at, cwd: at.cwd });
      known = await knownMarketplaces({ cairnHome: at.cairnHome, claudeHome: claudeHome(at) }, problems);
    }
  }
  if (wanted !== undefined && !known.has(wanted)) throw new Error(`no marketplace named "${wanted}" has been added (cairn plugin marketplace add <path|git URL|owner/repo>)${problems.length ? `; ${problems.join('; ')}` : ''}`);
  const found: { entry: MarketplaceEntry; market: Marketplace; known: Found<KnownMarketplace> }[] = [];
  for (const [marketName, k] of known) {
    if (wanted !== undefined && marketName !== wanted) continue;
    let market: Marketplace;
    try {
      market = await readMarketplace(k.installLocation);
    } catch (error) {
      if (wanted !== undefined) throw new Error(`marketplace ${marketName}: ${errorMessage(error)}`, { cause: error });
      continue;
    }
    const entry = market.plugins.find((p) => p.name === name);
    if (entry) found.push({ entry, market, known: k });
    const refused = name !== undefined ? market.refused.get(name) : undefined;
    if (refused !== undefined && wanted !== undefined) throw new Error(refused);
  }
  if (found.length === 0) throw new Error(`no plugin named "${name}" in ${wanted ? `marketplace ${wanted}` : 'the marketplaces added'}`);
  if (found.length > 1) throw new Error(`"${name}" is in ${found.map((f) => f.market.name).join(' and ')}: say which, as ${name}@<marketplace>`);
  const [only] = found;
  if (!only) throw new Error(`no plugin named "${name}"`);
  return only;
}

async function fetchPlugin(entry: MarketplaceEntry, temp: string): Promise<string | undefined> {
  if (entry.source.kind === 'path') {
    const stat = await fs.stat(entry.source.path).catch(() => undefined);
    if (!stat?.isDirectory()) throw new Error(`its source ${entry.source.path} is not a folder`);
    await fs.cp(entry.source.path, temp, { recursive: true, verbatimSymlinks: true, filter: (src) => path.basename(src) !== '.git' });
    return undefined;
  }
  return cloneRepository(entry.source.url, temp, entry.source.ref);
}

export interface InstallResult {
  id: string;
  version: string;
  installPath: string;
  /** The version it replaced, on an update. */
  previous?: string;
}

/** Installs (or reinstalls at the marketplace's current version) and enables a plugin; throws with the reason. */
export async function installPlugin(spec: string, at: PluginPlaces, opts: { enable?: boolean } = {}): Promise<InstallResult> {
  const { entry, market } = await findInMarketplaces(spec, at);
  const id = `${entry.name}@${market.name}`;
  const cache = path.join(pluginsDir(at.cairnHome), 'cache', market.name, entry.name);
  await fs.mkdir(cache, { recursive: true });
  const temp = await fs.mkdtemp(path.join(cache, '.fetch-'));
  let sha: string | undefined;
  try {
    sha = await fetchPlugin(entry, temp);
    await applyEntryManifest(temp, entry, `marketplace ${market.name}: plugin ${entry.name}`);
    // A plugin that cannot load is not installed: the message names its file.
    const loaded = await loadPlugin(temp, id, at.env);
    if (!loaded.plugin) throw new Error(loaded.problems.join('; ').replaceAll(temp, '<plugin>'));
    const version = loaded.plugin.version ?? entry.version ?? sha?.slice(0, 12) ?? 'unversioned';
    const dest = path.join(cache, version.replace(/[^A-Za-z0-9._+-]/g, '_'));
    await fs.rm(dest, { recursive: true, force: true });
    await fs.rename(temp, dest);
    let previous: string | undefined;
    const now = new Date().toISOString();
    await updateInstalled(at.cairnHome, (all) => {
      const was = all.get(id);
      previous = was?.version;
      all.set(id, { installPath: dest, version, installedAt: was?.installedAt ?? now, lastUpdated: now, ...(sha ? { gitCommitSha: sha } : {}) });
      // The copy of the version replaced goes (a copy is pinned to one version).
      if (was && was.installPath !== dest && was.installPath.startsWith(cache + path.sep)) void fs.rm(was.installPath, { recursive: true, force: true });
    });
    if (opts.enable !== false) await setPluginEnabled(at.cairnHome, id, true);
    return { id, version, installPath: dest, ...(previous !== undefined ? { previous } : {}) };
  } finally {
    await fs.rm(temp, { recursive: true, force: true });
  }
}

/** The installed id a user means: `name@marketplace` as given, or the one installed plugin of that name. */
export async function installedId(spec: string, at: PluginPlaces): Promise<{ id: string; from: 'cairn' | 'claude'; installPath: string; version?: string }> {
  const problems: string[] = [];
  const installed = await installedPlugins({ cairnHome: at.cairnHome, claudeHome: claudeHome(at) }, problems);
  const matches = [...installed].filter(([id]) => id === spec || (!spec.includes('@') && id.split('@')[0] === spec));
  if (matches.length === 0) throw new Error(`plugin ${spec} is not installed${problems.length ? ` (${problems.join('; ')})` : ''}`);
  if (matches.length > 1) throw new Error(`"${spec}" is installed from ${matches.map(([id]) => id).join(' and ')}: say which`);
  const [[id, p]] = matches as [[string, (typeof matches)[number][1]]];
  return { id, from: p.from, installPath: p.installPath, ...(p.version !== undefined ? { version: p.version } : {}) };
}

/** Removes cairn's copy and record and the user's switch; a Claude Code install is left to Claude Code. */
export async function uninstallPlugin(spec: string, at: PluginPlaces): Promise<string> {
  const found = await installedId(spec, at);
  if (found.from === 'claude') throw new Error(`${found.id} was installed by Claude Code (${found.installPath}); uninstall it there, or disable it with cairn plugin disable ${found.id}`);
  const cacheRoot = path.join(pluginsDir(at.cairnHome), 'cache') + path.sep;
  await updateInstalled(at.cairnHome, (all) => void all.delete(found.id));
  if (found.installPath.startsWith(cacheRoot)) await fs.rm(found.installPath, { recursive: true, force: true });
  await setPluginEnabled(at.cairnHome, found.id, undefined);
  return found.id;
}
