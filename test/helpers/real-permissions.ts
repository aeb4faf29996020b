import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionMode } from '../../src/events.js';
import { loadSettings } from '../../src/permissions/rules/settings.js';
import type { PermissionChecker } from '../../src/permissions/types.js';
import { permissionsFromSettings, permissionsForMode } from '../../src/runtime/permissions-from-options.js';
import { startingMode } from '../../src/runtime/session-facts.js';

export interface RealPermissionsOptions {
  /** The workspace whose settings are read (a later session in the same project); default: a new temp folder. */
  workspace?: string;
  /** The workspace's `.cairn/settings.json`, written first: its rules are in force, as a trusted project's are. */
  settings?: Record<string, unknown>;
  /** The user's `$CAIRN_HOME/settings.json` (what only the user may set: lifting a built-in deny rule). */
  userSettings?: Record<string, unknown>;
  /** The starting mode, as `--permission-mode` gives it (over the settings' defaultMode). */
  mode?: PermissionMode;
}

export interface RealPermissions {
  permissions: PermissionChecker;
  /** The workspace (a real path). */
  dir: string;
  /** A CAIRN_HOME of its own (its user settings file is read, and absent). */
  cairnHome: string;
  /** The file "always in this project" answers are saved to: the workspace's .cairn/settings.local.json. */
  localSettings: string;
  /** What an agent of a fixed mode runs under, as start-up wires it (permissionsForMode). */
  forMode: (mode: PermissionMode | undefined) => PermissionChecker;
}

/**
 * cairn's permission chain as a session gets it: every settings layer read (the workspace's, and a
 * temp CAIRN_HOME and Claude folder of its own, so the machine's settings stay out), the starting
 * mode settled, the real checker built on them.
 */
export async function realPermissions(options: RealPermissionsOptions = {}): Promise<RealPermissions> {
  const dir = options.workspace ?? (await realpath(await mkdtemp(join(tmpdir(), 'cairn-ws-'))));
  const home = await realpath(await mkdtemp(join(tmpdir(), 'cairn-home-')));
  const cairnHome = join(home, '.cairn');
  const write = async (folder: string, settings: Record<string, unknown> | undefined): Promise<void> => {
    if (!settings) return;
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'settings.json'), JSON.stringify(settings, null, 2));
  };
  await write(join(dir, '.cairn'), options.settings);
  await write(cairnHome, options.userSettings);
  const settings = await loadSettings({ workspace: dir, cairnHome, claudeHome: join(home, '.claude'), trusted: true });
  if (settings.warnings.length > 0) throw new Error(`the test's settings: ${settings.warnings.join('; ')}`);
  const { mode, warning } = startingMode(options.mode, settings);
  if (warning) throw new Error(`the test's mode: ${warning}`);
  const permissions = permissionsFromSettings({ cwd: dir, cairnHome, mode }, settings).permissions;
  return {
    permissions,
    dir,
    cairnHome,
    localSettings: join(dir, '.cairn', 'settings.local.json'),
    forMode: (fixed) => permissionsForMode({ cwd: dir, cairnHome, permissions }, fixed),
  };
}

/**
 * The real chain for a test whose point is not permissions: bypassPermissions mode, as
 * `--permission-mode bypassPermissions` runs (built-in deny rules still hold).
 */
export async function allowEverything(workspace?: string): Promise<PermissionChecker> {
  return (await realPermissions({ mode: 'bypassPermissions', ...(workspace !== undefined ? { workspace } : {}) })).permissions;
}
