// `cairn plugin enable|disable`: `enabledPlugins` in the user's own settings ($CAIRN_HOME/settings.json),
// where Claude Code keeps it at user scope. A folder's settings may switch a plugin too (once trusted).
import path from 'node:path';
import { readSettingsJson } from '../settings/settings-layers.js';
import { writeFileAtomically } from '../util/write-atomically.js';

export function userSettingsFile(cairnHome: string): string {
  return path.join(cairnHome, 'settings.json');
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Two changes at once (the CLI and the app) must not lose one another's.
let queue: Promise<unknown> = Promise.resolve();

/** Sets (true/false) or removes (undefined) a plugin's switch; throws naming the file when it cannot be read. */
export function setPluginEnabled(cairnHome: string, id: string, enabled: boolean | undefined): Promise<void> {
  const next = queue.catch(() => undefined).then(async () => {
    const file = userSettingsFile(cairnHome);
    const settings = (await readSettingsJson(file)) ?? {};
    if (!isObject(settings)) throw new Error(`${file}: expected a JSON object at the top level`);
    const current = isObject(settings['enabledPlugins']) ? { ...settings['enabledPlugins'] } : {};
    if (enabled === undefined) delete current[id];
    else current[id] = enabled;
    await writeFileAtomically(file, `${JSON.stringify({ ...settings, enabledPlugins: current }, null, 2)}\n`);
  });
  queue = next;
  return next;
}
