// Semantic colour tokens: components name what a colour means, the palette decides the colour.
// Values are SGR parameters (e.g. '32', '38;5;244'); an empty string means "no colour".

/** Every theme /theme offers. */
export const THEME_NAMES = ['dark', 'light'] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

export type ColorToken =
  | 'text'
  | 'muted'
  | 'accent'
  | 'user'
  | 'success'
  | 'warning'
  | 'error'
  | 'running'
  | 'diffAdd'
  | 'diffRemove'
  | 'diffHunk'
  | 'border'
  | 'toolName'
  | 'selection';

export interface Theme {
  readonly name: ThemeName;
  /** false under NO_COLOR: painters emit no colour codes at all. */
  readonly color: boolean;
  readonly colors: Readonly<Record<ColorToken, string>>;
}

const dark: Record<ColorToken, string> = {
  text: '',
  muted: '38;5;245',
  accent: '36',
  user: '38;5;75',
  success: '32',
  warning: '33',
  error: '31',
  running: '35',
  diffAdd: '32',
  diffRemove: '31',
  diffHunk: '36',
  border: '38;5;240',
  toolName: '1',
  selection: '7',
};

const light: Record<ColorToken, string> = {
  text: '',
  muted: '38;5;242',
  accent: '34',
  user: '38;5;26',
  success: '38;5;28',
  warning: '38;5;130',
  error: '38;5;160',
  running: '38;5;90',
  diffAdd: '38;5;28',
  diffRemove: '38;5;160',
  diffHunk: '38;5;25',
  border: '38;5;250',
  toolName: '1',
  selection: '7',
};

const none = Object.fromEntries(Object.keys(dark).map((k) => [k, ''])) as Record<ColorToken, string>;

export function isThemeName(value: unknown): value is ThemeName {
  return (THEME_NAMES as readonly unknown[]).includes(value);
}

/** NO_COLOR (any non-empty value, per no-color.org) wins over the chosen palette. */
export function createTheme(name: ThemeName, env: NodeJS.ProcessEnv = process.env): Theme {
  const noColor = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  if (noColor) return { name, color: false, colors: none };
  return { name, color: true, colors: name === 'light' ? light : dark };
}
