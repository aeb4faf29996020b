// The hooks in force for a session: read from every settings file (user, project, local; Claude
// Code's and cairn's) and from `.hooks.json`, with the switches /hooks turns. The folder's own hooks
// (its settings files and `.hooks.json`) run only in a trusted workspace, as in Claude Code.
import fs from 'node:fs/promises';
import path from 'node:path';
import { layersInForce } from '../settings/trusted-layers.js';
import { readSettingsJson, readSettingsLayers, type SettingsLocations } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';
import { parseCairnHooks, parseSettingsHooks } from './hook-config.js';
import type { HookDefinition } from './hook-types.js';
import { activePlugins } from '../plugins/active-plugins.js';
import { discoveredLayers, isBare } from '../settings/bare-mode.js';

export const CAIRN_HOOKS_FILE = '.hooks.json';
export const CAIRN_HOOKS_OFF_FILE = '.hooks.disabled';

export interface HookSetOptions extends SettingsLocations {
  /** Whether the workspace is trusted (asked again on every reload). */
  trusted: () => boolean | Promise<boolean>;
  /** The session's environment: given, the enabled plugins' hooks load too. */
  env?: NodeJS.ProcessEnv;
}

export interface HookSet {
  /** The hooks that run now: none while switched off. */
  active(): readonly HookDefinition[];
  /** Every hook loaded, whether or not switched off. */
  all(): readonly HookDefinition[];
  /** Problems met at the last load, each naming the file and key. */
  problems(): readonly string[];
  /** Why some hooks are not loaded (untrusted folder, .hooks.disabled, disableAllHooks), one line each. */
  notes(): readonly string[];
  readonly enabled: boolean;
  setEnabled(on: boolean): void;
  /** Reads the files again; the result replaces the hooks in force. */
  reload(): Promise<void>;
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

interface Loaded {
  hooks: HookDefinition[];
  problems: string[];
  notes: string[];
}

export async function loadHooks(opts: HookSetOptions): Promise<Loaded> {
  const out: Loaded = { hooks: [], problems: [], notes: [] };
  const trusted = await opts.trusted();
  let settings;
  try {
    settings = await readSettingsLayers(opts);
  } catch (error) {
    out.problems.push(`settings: ${errorMessage(error)}; hooks from settings files are not loaded`);
  }
  if (settings) {
    out.problems.push(...settings.warnings);
    const inForce = layersInForce(settings.layers, trusted);
    const withheld = inForce.withheld.filter((w) => w.key === 'hooks');
    for (const w of withheld) out.notes.push(`${w.file}: hooks wait until you trust this folder`);
    if (inForce.layers.some((l) => l.data['disableAllHooks'] === true)) {
      const file = inForce.layers.filter((l) => l.data['disableAllHooks'] === true).map((l) => l.file).join(', ');
      out.notes.push(`disableAllHooks is set (${file}): no hook runs`);
      return out;
    }
    for (const layer of discoveredLayers(inForce.layers)) {
      // Only the user's own file may point an http hook at loopback (see http-hook.ts).
      const parsed = parseSettingsHooks(layer.data['hooks'], layer.file, { origin: `${layer.commandLine === true ? '--settings' : layer.scope} settings`, userOwned: layer.scope === 'user' });
      out.hooks.push(...parsed.hooks);
      out.problems.push(...parsed.problems);
    }
    // The enabled plugins' hooks (their problems are told once, at start-up, by the plugin loader).
    if (opts.env) for (const plugin of (await activePlugins({ cwd: opts.workspace, cairnHome: opts.cairnHome, env: opts.env, trusted })).plugins) out.hooks.push(...plugin.hooks);
  }
  // --bare: the project's .hooks.json is not read either.
  if (settings && isBare(settings.layers)) return out;
  const file = path.join(opts.workspace, CAIRN_HOOKS_FILE);
  try {
    if (!(await exists(file))) return out;
    if (!trusted) {
      out.notes.push(`${file}: hooks wait until you trust this folder`);
      return out;
    }
    if (await exists(path.join(opts.workspace, CAIRN_HOOKS_OFF_FILE))) {
      out.notes.push(`${file}: off (${CAIRN_HOOKS_OFF_FILE} exists)`);
      return out;
    }
    const parsed = parseCairnHooks(await readSettingsJson(file), file);
    out.hooks.push(...parsed.hooks.map((h) => ({ ...h, origin: 'project .hooks.json' })));
    out.problems.push(...parsed.problems);
  } catch (error) {
    out.problems.push(`${errorMessage(error)}; its hooks are not loaded`);
  }
  return out;
}

export async function createHookSet(opts: HookSetOptions): Promise<HookSet> {
  let loaded = await loadHooks(opts);
  let enabled = true;
  return {
    active: () => (enabled ? loaded.hooks : []),
    all: () => loaded.hooks,
    problems: () => loaded.problems,
    notes: () => loaded.notes,
    get enabled() {
      return enabled;
    },
    setEnabled(on) {
      enabled = on;
    },
    async reload() {
      loaded = await loadHooks(opts);
    },
  };
}
