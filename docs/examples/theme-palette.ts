import type { ColorToken } from '../../components/theme/theme.js';

// The example of docs/guide/add-a-theme.md: a high-contrast palette. Values are SGR parameters:
// '1;97' is bold bright white, '38;5;N' a colour of the 256-colour table; '' leaves the terminal's own.
export const highContrast: Readonly<Record<ColorToken, string>> = {
  text: '97',
  muted: '37',
  accent: '1;96',
  user: '1;94',
  success: '92',
  warning: '1;93',
  error: '1;91',
  running: '95',
  diffAdd: '30;102',
  diffRemove: '30;101',
  diffHunk: '1;96',
  border: '37',
  toolName: '1;97',
  selection: '7',
};
