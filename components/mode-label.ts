import type { SessionInfo } from './store/types.js';

/** The permission mode as the header and status bar say it. */
export function modeLabel(mode: SessionInfo['mode']): string {
  switch (mode) {
    case 'default':
      return 'default';
    case 'acceptEdits':
      return 'accept edits';
    case 'plan':
      return 'plan mode';
    case 'auto':
      return 'auto mode';
    case 'bypassPermissions':
      return 'bypass permissions';
    case 'dontAsk':
      return "don't ask";
  }
}
