import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ThemeName } from './theme.js';
import { isThemeName } from './theme.js';

/** UI preferences remembered across runs in $CAIRN_HOME/tui.json. */
export interface TuiSettings {
  theme: ThemeName;
}

export const DEFAULT_TUI_SETTINGS: TuiSettings = { theme: 'dark' };

export function tuiSettingsPath(cairnHome: string): string {
  return join(cairnHome, 'tui.json');
}

/** A missing file is the defaults; a broken one is reported (returned as `problem`), never thrown. */
export async function loadTuiSettings(cairnHome: string): Promise<{ settings: TuiSettings; problem?: string }> {
  const file = tuiSettingsPath(cairnHome);
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { settings: { ...DEFAULT_TUI_SETTINGS } };
    return { settings: { ...DEFAULT_TUI_SETTINGS }, problem: `${file}: ${(error as Error).message}` };
  }
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown>;
    const theme = parsed['theme'];
    if (theme !== undefined && !isThemeName(theme)) {
      return { settings: { ...DEFAULT_TUI_SETTINGS }, problem: `${file}: "theme" must be "dark" or "light", got ${JSON.stringify(theme)}` };
    }
    return { settings: { theme: theme ?? DEFAULT_TUI_SETTINGS.theme } };
  } catch (error) {
    return { settings: { ...DEFAULT_TUI_SETTINGS }, problem: `${file}: invalid JSON (${(error as Error).message})` };
  }
}

export async function saveTuiSettings(cairnHome: string, settings: TuiSettings): Promise<void> {
  const file = tuiSettingsPath(cairnHome);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(settings, null, 2)}\n`);
}
