// `cairn plugin ...`: marketplaces and plugins from the command line, as `claude plugin ...`.
import fs from 'node:fs/promises';
import path from 'node:path';
import { claudeHomeFrom } from '../settings/settings-layers.js';
import { workspaceTrust } from '../settings/workspace-trust.js';
import { cairnHomeFrom } from '../util/cairn-home.js';
import { errorMessage } from '../util/error-message.js';
import { addMarketplace, refreshMarketplace } from './marketplace.js';
import { pluginCatalog } from './plugin-catalog.js';
import { describeContents } from './plugin-contents.js';
import { findInMarketplaces, installedId, installPlugin, uninstallPlugin } from './plugin-install.js';
import { knownMarketplaces, pluginsDir, updateMarketplaces } from './plugin-store.js';
import { setPluginEnabled } from './plugin-switch.js';

export const PLUGIN_HELP = `Usage: cairn plugin <command>

  marketplace add <path|git URL|owner/repo>   add a marketplace (.claude-plugin/marketplace.json)
  marketplace list                            the marketplaces added (cairn's and Claude Code's)
  marketplace update [name]                   fetch a marketplace again (all when no name)
  marketplace remove <name>                   forget a marketplace cairn added
  install <plugin>[@marketplace]              install a plugin and enable it
  list                                        installed plugins, enabled or not, and what each holds
  enable <plugin>[@marketplace]               enable an installed plugin (user settings)
  disable <plugin>[@marketplace]              disable it (user settings)
  update <plugin>[@marketplace]               install the marketplace's current version
  uninstall <plugin>[@marketplace]            remove cairn's copy

Installed plugins live in $CAIRN_HOME/plugins/; plugins installed for Claude Code
(~/.claude/plugins/) are found in place. Their commands are /<plugin>:<command>.
`;

export interface PluginCommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Runs one `cairn plugin` command; resolves the exit code (0, 1 failed, 2 usage). */
export async function runPluginCommand(args: readonly string[], io: PluginCommandIo): Promise<number> {
  const cairnHome = cairnHomeFrom(io.env);
  const at = { cairnHome, env: io.env, cwd: io.cwd };
  const out = (line: string): void => void io.stdout.write(`${line}\n`);
  const [sub, ...rest] = args;
  const one = (what: string): string => {
    const [value] = rest;
    if (value === undefined || rest.length !== 1) throw new UsageError(`cairn plugin ${sub ?? ''} needs one ${what}`);
    return value;
  };
  try {
    switch (sub) {
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(PLUGIN_HELP);
        return 0;
      case 'marketplace':
        return await marketplaceCommand(rest, io, cairnHome);
      case 'install': {
        const done = await installPlugin(one('plugin (name@marketplace)'), at);
        out(`Installed ${done.id} ${done.version} in ${done.installPath}; enabled. Its commands are /${done.id.split('@')[0]}:<command>.`);
        return 0;
      }
      case 'enable':
      case 'disable': {
        const found = await installedId(one('plugin'), at);
        await setPluginEnabled(cairnHome, found.id, sub === 'enable');
        out(`${sub === 'enable' ? 'Enabled' : 'Disabled'} ${found.id} (${path.join(cairnHome, 'settings.json')}).`);
        return 0;
      }
      case 'update': {
        const found = await installedId(one('plugin'), at);
        if (found.from === 'claude') throw new Error(`${found.id} was installed by Claude Code; update it there`);
        const { known } = await findInMarketplaces(found.id, at);
        await refreshMarketplace(known.source, cairnHome);
        const done = await installPlugin(found.id, at, { enable: false });
        out(done.previous === done.version ? `${done.id} is at ${done.version} already (fetched again).` : `Updated ${done.id} from ${done.previous ?? 'unknown'} to ${done.version}.`);
        return 0;
      }
      case 'uninstall':
      case 'remove': {
        out(`Uninstalled ${await uninstallPlugin(one('plugin'), at)}.`);
        return 0;
      }
      case 'list': {
        const trusted = (await workspaceTrust({ workspace: io.cwd, cairnHome, claudeHome: claudeHomeFrom(io.env) })).trusted;
        const catalog = await pluginCatalog({ cwd: io.cwd, cairnHome, env: io.env, trusted });
        const installed = catalog.entries.filter((e) => e.installed);
        if (installed.length === 0) out('No plugin is installed. Add a marketplace and install one: cairn plugin marketplace add <path|git URL|owner/repo>');
        for (const e of installed) {
          out(`${e.id}${e.version ? ` ${e.version}` : ''}: ${e.enabled ? 'enabled' : 'disabled'}${e.installed?.by === 'claude' ? ' (installed by Claude Code)' : ''}`);
          if (e.description) out(`  ${e.description}`);
          if (e.contents) out(`  ${describeContents(e.contents)}`);
          for (const p of e.problems) out(`  problem: ${p}`);
        }
        const available = catalog.entries.filter((e) => !e.installed);
        if (available.length > 0) out(`Available to install: ${available.map((e) => e.id).join(', ')}`);
        for (const p of catalog.problems) io.stderr.write(`cairn: ${p}\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown plugin command "${sub}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`cairn: ${error.message}\n${PLUGIN_HELP}`);
      return 2;
    }
    io.stderr.write(`cairn: plugin ${sub ?? ''}: ${errorMessage(error)}\n`);
    return 1;
  }
}

class UsageError extends Error {}

async function marketplaceCommand(args: readonly string[], io: PluginCommandIo, cairnHome: string): Promise<number> {
  const out = (line: string): void => void io.stdout.write(`${line}\n`);
  const [sub, value] = args;
  switch (sub) {
    case 'add': {
      if (value === undefined) throw new UsageError('cairn plugin marketplace add needs a path, a git URL or owner/repo');
      const market = await addMarketplace(value, { cairnHome, cwd: io.cwd });
      out(`Added marketplace ${market.name} (${market.plugins.length} plugin${market.plugins.length === 1 ? '' : 's'}: ${market.plugins.map((p) => p.name).join(', ') || 'none'}) from ${value}.`);
      for (const p of market.problems) io.stderr.write(`cairn: ${p}\n`);
      return 0;
    }
    case 'list': {
      const problems: string[] = [];
      const known = await knownMarketplaces({ cairnHome, claudeHome: claudeHomeFrom(io.env) }, problems);
      if (known.size === 0) out('No marketplace has been added.');
      for (const [name, k] of known) {
        const from = k.source.source === 'directory' ? k.source.path : k.source.source === 'git' ? k.source.url : k.source.repo;
        out(`${name}: ${from}${k.from === 'claude' ? ' (added by Claude Code)' : ''}`);
      }
      for (const p of problems) io.stderr.write(`cairn: ${p}\n`);
      return 0;
    }
    case 'update': {
      const problems: string[] = [];
      const known = await knownMarketplaces({ cairnHome, claudeHome: claudeHomeFrom(io.env) }, problems);
      const names = value !== undefined ? [value] : [...known.keys()];
      for (const name of names) {
        const k = known.get(name);
        if (!k) throw new Error(`no marketplace named "${name}" has been added`);
        const market = await refreshMarketplace(k.source, cairnHome);
        out(`Updated marketplace ${market.name} (${market.plugins.length} plugins).`);
      }
      return 0;
    }
    case 'remove':
    case 'rm': {
      if (value === undefined) throw new UsageError('cairn plugin marketplace remove needs a name');
      let location: string | undefined;
      await updateMarketplaces(cairnHome, (all) => {
        location = all.get(value)?.installLocation;
        all.delete(value);
      });
      if (location === undefined) throw new Error(`no marketplace named "${value}" was added by cairn`);
      // A clone cairn made goes with it; a folder added in place is the user's and stays.
      if (location.startsWith(path.join(pluginsDir(cairnHome), 'marketplaces') + path.sep)) await fs.rm(location, { recursive: true, force: true });
      out(`Removed marketplace ${value}; plugins installed from it stay installed.`);
      return 0;
    }
    default:
      throw new UsageError(`unknown marketplace command "${sub ?? ''}"`);
  }
}
