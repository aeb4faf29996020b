// A marketplace: a folder or repository with `.claude-plugin/marketplace.json` listing plugins
// (`name`, `owner`, `plugins: [{name, source, description?, version?}]`), as Claude Code documents
// it. Added from a local path (used in place), a git URL or GitHub's `owner/repo` (cloned under
// `$CAIRN_HOME/plugins/marketplaces/<name>`).
import fs from 'node:fs/promises';
import path from 'node:path';
import { readSettingsJson } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';
import { cloneRepository, githubUrl, looksLikeGithubRepo, looksLikeGitUrl } from './git-fetch.js';
import { entryComponents, type EntryComponents } from './entry-manifest.js';
import { PLUGIN_NAME } from './plugin-manifest.js';
import { pluginsDir, updateMarketplaces, type MarketplaceSource } from './plugin-store.js';

export const MARKETPLACE_FILE = path.join('.claude-plugin', 'marketplace.json');

/** Where a plugin of a marketplace is fetched from. */
export type PluginSource = { kind: 'path'; path: string } | { kind: 'git'; url: string; ref?: string; sha?: string };

export interface MarketplaceEntry {
  name: string;
  description?: string;
  version?: string;
  source: PluginSource;
  /** false: the entry is the plugin's whole definition (no plugin.json needed); true (default): it adds to plugin.json. */
  strict: boolean;
  /** The entry's own `commands`/`agents`/`skills`/`hooks`/`mcpServers`, paths checked to stay inside the plugin. */
  components: EntryComponents;
}

export interface Marketplace {
  name: string;
  /** The folder holding `.claude-plugin/marketplace.json`. */
  root: string;
  description?: string;
  plugins: MarketplaceEntry[];
  /** Entries that cannot be used, each naming the file and the entry; the others can. */
  problems: string[];
  /** Plugins listed but refused, by name: why (naming the marketplace, plugin and field). */
  refused: Map<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entrySource(value: unknown, base: string, root: string): PluginSource | string {
  if (typeof value === 'string') {
    if (looksLikeGitUrl(value)) return { kind: 'git', url: value };
    const full = path.resolve(base, value);
    const rel = path.relative(root, full);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return `"source" ${JSON.stringify(value)} is outside the marketplace`;
    return { kind: 'path', path: full };
  }
  if (!isObject(value)) return `"source" must be a relative path or an object, got ${JSON.stringify(value)}`;
  const ref = typeof value['ref'] === 'string' ? { ref: value['ref'] } : {};
  const sha = typeof value['sha'] === 'string' ? { sha: value['sha'] } : {};
  if (value['source'] === 'github' && typeof value['repo'] === 'string') return { kind: 'git', url: githubUrl(value['repo']), ...ref, ...sha };
  if ((value['source'] === 'url' || value['source'] === 'git') && typeof value['url'] === 'string') return { kind: 'git', url: value['url'], ...ref, ...sha };
  return `"source" ${JSON.stringify(value['source'])} is not one cairn fetches (a relative path, "github" or "url")`;
}

/** Reads `.claude-plugin/marketplace.json` in `root`; throws naming the file when it cannot be used. */
export async function readMarketplace(root: string): Promise<Marketplace> {
  const file = path.join(root, MARKETPLACE_FILE);
  const data = await readSettingsJson(file);
  if (data === undefined) throw new Error(`${file}: not found; a marketplace has .claude-plugin/marketplace.json at its root`);
  if (!isObject(data)) throw new Error(`${file}: expected a JSON object`);
  const name = data['name'];
  if (typeof name !== 'string' || !PLUGIN_NAME.test(name)) throw new Error(`${file}: "name" must be the marketplace's name in kebab-case, got ${JSON.stringify(name)}`);
  if (!Array.isArray(data['plugins'])) throw new Error(`${file}: "plugins" must be a list of plugin entries`);
  const metadata = isObject(data['metadata']) ? data['metadata'] : {};
  // metadata.pluginRoot: the folder bare source paths are relative to.
  const base = typeof metadata['pluginRoot'] === 'string' ? path.resolve(root, metadata['pluginRoot']) : root;
  const problems: string[] = [];
  const plugins: MarketplaceEntry[] = [];
  const refused = new Map<string, string>();
  data['plugins'].forEach((entry: unknown, i) => {
    const at = `${file}: plugins[${i}]`;
    if (!isObject(entry) || typeof entry['name'] !== 'string' || !PLUGIN_NAME.test(entry['name'])) return problems.push(`${at}: expected {name, source} with a kebab-case name; passed over`);
    const source = entrySource(entry['source'], base, root);
    if (typeof source === 'string') return problems.push(`${at} (${entry['name']}): ${source}; passed over`);
    const checked = entryComponents(entry);
    if ('problem' in checked) {
      const why = `marketplace ${name}: plugin ${entry['name']}: ${checked.problem}; the plugin is refused (${file})`;
      refused.set(entry['name'], why);
      return problems.push(why);
    }
    plugins.push({
      name: entry['name'],
      ...(typeof entry['description'] === 'string' ? { description: entry['description'] } : {}),
      ...(typeof entry['version'] === 'string' ? { version: entry['version'] } : {}),
      source,
      strict: entry['strict'] !== false,
      components: checked.components,
    });
    return undefined;
  });
  const description = typeof data['description'] === 'string' ? data['description'] : typeof metadata['description'] === 'string' ? metadata['description'] : undefined;
  return { name, root, ...(description !== undefined ? { description } : {}), plugins, problems, refused };
}

/** `<path|git URL|owner/repo>` as a source; throws when it is none of them. */
export async function marketplaceSourceOf(input: string, cwd: string): Promise<MarketplaceSource> {
  if (looksLikeGitUrl(input)) return { source: 'git', url: input };
  const local = path.resolve(cwd, input);
  try {
    const stat = await fs.stat(local);
    // The marketplace.json itself names its marketplace's folder.
    if (stat.isFile() && path.basename(local) === 'marketplace.json') return { source: 'directory', path: path.dirname(path.dirname(local)) };
    if (stat.isDirectory()) return { source: 'directory', path: local };
  } catch {
    // not a local path: owner/repo next
  }
  if (looksLikeGithubRepo(input)) return { source: 'github', repo: input };
  throw new Error(`${input}: not a folder, a git URL or a GitHub owner/repo`);
}

function marketplacesDir(cairnHome: string): string {
  return path.join(pluginsDir(cairnHome), 'marketplaces');
}

/** The folder a source's marketplace is read from: the folder itself, or a fresh clone under `$CAIRN_HOME`. */
async function fetchMarketplace(source: MarketplaceSource, cairnHome: string): Promise<{ root: string; cloned: boolean }> {
  if (source.source === 'directory') return { root: source.path, cloned: false };
  const url = source.source === 'github' ? githubUrl(source.repo) : source.url;
  await fs.mkdir(marketplacesDir(cairnHome), { recursive: true });
  const temp = await fs.mkdtemp(path.join(marketplacesDir(cairnHome), '.fetch-'));
  try {
    await cloneRepository(url, temp);
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true });
    throw new Error(`cannot fetch the marketplace from ${url}: ${errorMessage(error)}`, { cause: error });
  }
  return { root: temp, cloned: true };
}

/**
 * Adds (or, for a name already added from the same place, refreshes) a marketplace. Resolves the
 * marketplace as read; throws with a message naming the source or file.
 */
export async function addMarketplace(input: string, at: { cairnHome: string; cwd: string }): Promise<Marketplace> {
  const source = await marketplaceSourceOf(input, at.cwd);
  return installMarketplace(source, at.cairnHome);
}

async function installMarketplace(source: MarketplaceSource, cairnHome: string): Promise<Marketplace> {
  const fetched = await fetchMarketplace(source, cairnHome);
  let market: Marketplace;
  try {
    market = await readMarketplace(fetched.root);
  } catch (error) {
    if (fetched.cloned) await fs.rm(fetched.root, { recursive: true, force: true });
    throw error;
  }
  let root = fetched.root;
  if (fetched.cloned) {
    root = path.join(marketplacesDir(cairnHome), market.name);
    await fs.rm(root, { recursive: true, force: true });
    await fs.rename(fetched.root, root);
  }
  await updateMarketplaces(cairnHome, (all) => {
    all.set(market.name, { source, installLocation: root, lastUpdated: new Date().toISOString() });
  });
  return { ...market, root, plugins: root === fetched.root ? market.plugins : (await readMarketplace(root)).plugins };
}

/** Fetches a marketplace again from where it was added (a folder is read in place: nothing to fetch). */
export async function refreshMarketplace(source: MarketplaceSource, cairnHome: string): Promise<Marketplace> {
  return installMarketplace(source, cairnHome);
}
