import type { TuiStore } from '../store/create-store.js';
import { useStoreSelector } from '../store/use-store-selector.js';
import type { Theme, ThemeName } from './theme.js';
import { createTheme } from './theme.js';

// One Theme object per name, so caches keyed by theme identity stay warm.
const themes = new Map<string, Theme>();

export function themeFor(name: ThemeName, env: NodeJS.ProcessEnv = process.env): Theme {
  const key = `${name}|${env['NO_COLOR'] ?? ''}`;
  let theme = themes.get(key);
  if (!theme) {
    theme = createTheme(name, env);
    themes.set(key, theme);
  }
  return theme;
}

const selectThemeName = (s: { themeName: ThemeName }): ThemeName => s.themeName;

export function useTheme(store: TuiStore): Theme {
  return themeFor(useStoreSelector(store, selectThemeName));
}
