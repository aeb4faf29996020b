import { readSettingsLayers, type SettingsLocations } from './settings-layers.js';

export interface StatusLineSetting {
  /** The shell command (Claude Code's `statusLine: {type: "command", command}`), when one applies. */
  command?: string;
  /** The file it came from. */
  source?: string;
  problems: string[];
}

/**
 * The `statusLine` setting from the user's settings files ($CAIRN_HOME/settings.json wins over
 * ~/.claude/settings.json). A project's or local file's statusLine is not run: it would be a
 * command the folder's author chose, running at every refresh; it is reported instead.
 */
export async function readStatusLineSetting(at: SettingsLocations): Promise<StatusLineSetting> {
  const out: StatusLineSetting = { problems: [] };
  let layers;
  try {
    layers = (await readSettingsLayers(at)).layers;
  } catch (error) {
    // Start-up has reported the broken file already; the status line just stays built-in.
    return { problems: [`statusLine not read: ${error instanceof Error ? error.message : String(error)}`] };
  }
  for (const layer of layers) {
    const value = layer.data['statusLine'];
    if (value === undefined) continue;
    if (layer.scope !== 'user') {
      out.problems.push(`${layer.file}: "statusLine" is not run from a project's settings (put it in your user settings)`);
      continue;
    }
    const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    if (record?.['type'] !== 'command' || typeof record['command'] !== 'string' || record['command'].trim() === '') {
      out.problems.push(`${layer.file}: "statusLine" must be {"type": "command", "command": "<shell command>"}`);
      continue;
    }
    out.command = record['command'];
    out.source = layer.file;
  }
  return out;
}
