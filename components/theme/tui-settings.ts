import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ThemeName } from './theme.js';
import type { NotifyStyle } from '../app/turn-notifier.js';
import { isThemeName } from './theme.js';

/** What stays on the terminal after exit: the whole conversation, the last answer, or nothing. */
export type ScrollbackMode = 'full' | 'last-answer' | 'none';
export const SCROLLBACK_MODES: readonly ScrollbackMode[] = ['full', 'last-answer', 'none'];

/** UI preferences remembered across runs in $CAIRN_HOME/tui.json. */
export interface TuiSettings {
  theme: ThemeName;
  /** Wheel reporting at start (off: the terminal's own selection works without Shift). */
  mouse: boolean;
  scrollback: ScrollbackMode;
  /** A turn that ends while the terminal is unfocused notifies when it took at least this long. */
  notifyAfterSeconds: number;
  notifyStyle: NotifyStyle;
  /** Thumbnails of attached images under their chips, in kitty (components/app/inline-images.ts). */
  inlineImages: boolean;
}

export const DEFAULT_TUI_SETTINGS: TuiSettings = { theme: 'dark', mouse: false, scrollback: 'full', notifyAfterSeconds: 10, notifyStyle: 'osc9', inlineImages: false };
const NOTIFY_STYLES: readonly NotifyStyle[] = ['bell', 'osc9', 'osc777', 'all'];

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
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(raw) as Record<string, unknown>;
  } catch (error) {
    return { settings: { ...DEFAULT_TUI_SETTINGS }, problem: `${file}: invalid JSON (${(error as Error).message})` };
  }
  // Each key on its own: a bad one is named and falls back to its default; the others still apply.
  const settings: TuiSettings = { ...DEFAULT_TUI_SETTINGS };
  const problems: string[] = [];
  const { theme, mouse, scrollback, notifyAfterSeconds, notifyStyle, inlineImages } = parsed;
  if (inlineImages !== undefined) {
    if (typeof inlineImages === 'boolean') settings.inlineImages = inlineImages;
    else problems.push(`"inlineImages" must be true or false, got ${JSON.stringify(inlineImages)}`);
  }
  if (notifyAfterSeconds !== undefined) {
    if (typeof notifyAfterSeconds === 'number' && notifyAfterSeconds >= 0) settings.notifyAfterSeconds = notifyAfterSeconds;
    else problems.push(`"notifyAfterSeconds" must be a number of seconds, 0 or more, got ${JSON.stringify(notifyAfterSeconds)}`);
  }
  if (notifyStyle !== undefined) {
    if (NOTIFY_STYLES.includes(notifyStyle as NotifyStyle)) settings.notifyStyle = notifyStyle as NotifyStyle;
    else problems.push(`"notifyStyle" must be ${NOTIFY_STYLES.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(notifyStyle)}`);
  }
  if (theme !== undefined) {
    if (isThemeName(theme)) settings.theme = theme;
    else problems.push(`"theme" must be "dark" or "light", got ${JSON.stringify(theme)}`);
  }
  if (mouse !== undefined) {
    if (typeof mouse === 'boolean') settings.mouse = mouse;
    else problems.push(`"mouse" must be true or false, got ${JSON.stringify(mouse)}`);
  }
  if (scrollback !== undefined) {
    if (SCROLLBACK_MODES.includes(scrollback as ScrollbackMode)) settings.scrollback = scrollback as ScrollbackMode;
    else problems.push(`"scrollback" must be ${SCROLLBACK_MODES.map((m) => `"${m}"`).join(', ')}, got ${JSON.stringify(scrollback)}`);
  }
  return problems.length ? { settings, problem: `${file}: ${problems.join('; ')}` } : { settings };
}

/** Writes the given keys, keeping the file's others (a theme switch must not forget the mouse choice). */
export async function saveTuiSettings(cairnHome: string, settings: Partial<TuiSettings>): Promise<void> {
  const file = tuiSettingsPath(cairnHome);
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    // A missing file starts empty; a broken one is replaced (loading it already reported it).
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify({ ...current, ...settings }, null, 2)}\n`);
}
