// Where installed plugins and added marketplaces are recorded, in Claude Code's own file shapes:
// `$CAIRN_HOME/plugins/` is cairn's (written by `cairn plugin ...`), `~/.claude/plugins/` is Claude
// Code's (read in place, never written), so plugins a user installed for Claude Code load as they are.
import path from 'node:path';
import { readSettingsJson } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';
import { writeFileAtomically } from '../util/write-atomically.js';

/** Where a marketplace came from, as Claude Code records it. */
export type MarketplaceSource = { source: 'directory'; path: string } | { source: 'git'; url: string } | { source: 'github'; repo: string };

export interface KnownMarketplace {
  source: MarketplaceSource;
  /** The folder holding `.claude-plugin/marketplace.json`. */
  installLocation: string;
  lastUpdated?: string;
}

export interface InstalledPlugin {
  installPath: string;
  version?: string;
  installedAt?: string;
  lastUpdated?: string;
  gitCommitSha?: string;
}

/** A record with the family it came from: cairn's own, or Claude Code's (found in place). */
export type Found<T> = T & { from: 'cairn' | 'claude' };

export function pluginsDir(home: string): string {
  return path.join(home, 'plugins');
}
const marketplacesFile = (home: string): string => path.join(pluginsDir(home), 'known_marketplaces.json');
const installedFile = (home: string): string => path.join(pluginsDir(home), 'installed_plugins.json');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readJson(file: string, problems: string[]): Promise<unknown> {
  try {
    return await readSettingsJson(file);
  } catch (error) {
    problems.push(`${errorMessage(error)}; what it records is not used`);
    return undefined;
  }
}

function parseSource(value: unknown): MarketplaceSource | undefined {
  if (!isObject(value)) return undefined;
  if (value['source'] === 'directory' && typeof value['path'] === 'string') return { source: 'directory', path: value['path'] };
  if (value['source'] === 'git' && typeof value['url'] === 'string') return { source: 'git', url: value['url'] };
  if (value['source'] === 'github' && typeof value['repo'] === 'string') return { source: 'github', repo: value['repo'] };
  return undefined;
}

async function readMarketplacesOf(home: string, problems: string[]): Promise<Map<string, KnownMarketplace>> {
  const out = new Map<string, KnownMarketplace>();
  const file = marketplacesFile(home);
  const data = await readJson(file, problems);
  if (data === undefined) return out;
  if (!isObject(data)) {
    problems.push(`${file}: expected an object of marketplaces; not used`);
    return out;
  }
  for (const [name, entry] of Object.entries(data)) {
    const source = isObject(entry) ? parseSource(entry['source']) : undefined;
    if (!isObject(entry) || !source || typeof entry['installLocation'] !== 'string') {
      problems.push(`${file}: marketplace "${name}": expected {source, installLocation}; passed over`);
      continue;
    }
    out.set(name, { source, installLocation: entry['installLocation'], ...(typeof entry['lastUpdated'] === 'string' ? { lastUpdated: entry['lastUpdated'] } : {}) });
  }
  return out;
}

function parseInstall(entry: unknown): InstalledPlugin | undefined {
  if (!isObject(entry) || typeof entry['installPath'] !== 'string') return undefined;
  const out: InstalledPlugin = { installPath: entry['installPath'] };
  for (const key of ['version', 'installedAt', 'lastUpdated', 'gitCommitSha'] as const) if (typeof entry[key] === 'string') out[key] = entry[key];
  return out;
}

/**
 * Which of a plugin's installs applies: Claude Code's version 2 keeps one per scope, and a `project`
 * or `local` one (with `projectPath`) holds only in that project. The install for this workspace
 * wins, then the `user` one; another project's install does not apply here (undefined). Without a
 * workspace (or a version 1 record): the user's, else the first.
 */
function applyingInstall(value: unknown, cwd: string | undefined): unknown {
  const list = (Array.isArray(value) ? value : [value]).filter(isObject);
  const scoped = (r: Record<string, unknown>) => r['scope'] === 'project' || r['scope'] === 'local';
  const here = cwd === undefined ? undefined : list.find((r) => scoped(r) && typeof r['projectPath'] === 'string' && path.resolve(r['projectPath']) === path.resolve(cwd));
  const user = list.find((r) => !scoped(r));
  if (here ?? user) return here ?? user;
  return cwd === undefined ? (Array.isArray(value) ? value[0] : value) : undefined;
}

async function readInstalledOf(home: string, problems: string[], cwd?: string): Promise<Map<string, InstalledPlugin>> {
  const out = new Map<string, InstalledPlugin>();
  const file = installedFile(home);
  const data = await readJson(file, problems);
  if (data === undefined) return out;
  // Version 2 keeps a list of installs per id (one per scope); version 1 kept one object.
  const plugins = isObject(data) ? data['plugins'] : undefined;
  if (!isObject(plugins)) {
    problems.push(`${file}: expected {"plugins": {...}}; not used`);
    return out;
  }
  for (const [id, value] of Object.entries(plugins)) {
    const applying = applyingInstall(value, cwd);
    // Installed for other projects only: not installed here, nothing wrong with the file.
    if (applying === undefined && Array.isArray(value) && value.length > 0 && value.every((r) => isObject(r) && typeof r['installPath'] === 'string')) continue;
    const install = parseInstall(applying);
    if (install) out.set(id, install);
    else problems.push(`${file}: plugin "${id}": expected an install with "installPath"; passed over`);
  }
  return out;
}

/** Marketplaces cairn added, then Claude Code's that cairn has not (cairn's win on a name). */
export async function knownMarketplaces(at: { cairnHome: string; claudeHome: string }, problems: string[]): Promise<Map<string, Found<KnownMarketplace>>> {
  const out = new Map<string, Found<KnownMarketplace>>();
  for (const [name, m] of await readMarketplacesOf(at.claudeHome, problems)) out.set(name, { ...m, from: 'claude' });
  for (const [name, m] of await readMarketplacesOf(at.cairnHome, problems)) out.set(name, { ...m, from: 'cairn' });
  return out;
}

/** Installed plugins by id (`name@marketplace`): cairn's, then Claude Code's that cairn has not installed. */
export async function installedPlugins(at: { cairnHome: string; claudeHome: string; cwd?: string }, problems: string[]): Promise<Map<string, Found<InstalledPlugin>>> {
  const out = new Map<string, Found<InstalledPlugin>>();
  for (const [id, p] of await readInstalledOf(at.claudeHome, problems, at.cwd)) out.set(id, { ...p, from: 'claude' });
  for (const [id, p] of await readInstalledOf(at.cairnHome, problems)) out.set(id, { ...p, from: 'cairn' });
  return out;
}

/** Changes cairn's own marketplace record; throws naming the file when it cannot be read. */
export async function updateMarketplaces(cairnHome: string, change: (m: Map<string, KnownMarketplace>) => void): Promise<void> {
  const problems: string[] = [];
  const current = await readMarketplacesOf(cairnHome, problems);
  if (problems.length > 0) throw new Error(problems.join('; '));
  change(current);
  await writeFileAtomically(marketplacesFile(cairnHome), `${JSON.stringify(Object.fromEntries(current), null, 2)}\n`);
}

/** Changes cairn's own install record; throws naming the file when it cannot be read. */
export async function updateInstalled(cairnHome: string, change: (m: Map<string, InstalledPlugin>) => void): Promise<void> {
  const problems: string[] = [];
  const current = await readInstalledOf(cairnHome, problems);
  if (problems.length > 0) throw new Error(problems.join('; '));
  change(current);
  const plugins = Object.fromEntries([...current].map(([id, p]) => [id, [{ scope: 'user', ...p }]]));
  await writeFileAtomically(installedFile(cairnHome), `${JSON.stringify({ version: 2, plugins }, null, 2)}\n`);
}
