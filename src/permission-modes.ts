// The permission modes, as plain values: the command line and the first frame check a mode
// without loading zod. events.ts declares the schema; the types below keep the two lists equal.
import type { PermissionMode } from './events.js';

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions', 'dontAsk'] as const satisfies readonly PermissionMode[];
export type { PermissionMode };

// A mode added to the schema and not here fails to compile.
const everyModeListed: Exclude<PermissionMode, (typeof PERMISSION_MODES)[number]> extends never ? true : false = true;
void everyModeListed;

export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}

/**
 * The modes Shift+Tab cycles through and /mode offers: bypassPermissions only when cairn was started
 * in it; auto only when there is a model for its classifier (not the offline model).
 */
export function allowedModes(startedInBypass: boolean, autoAvailable = true): PermissionMode[] {
  return [...(['default', 'acceptEdits', 'plan'] as const), ...(autoAvailable ? (['auto'] as const) : []), ...(startedInBypass ? (['bypassPermissions'] as const) : [])];
}

export function nextMode(mode: PermissionMode, startedInBypass: boolean, autoAvailable = true): PermissionMode {
  // dontAsk (from settings or --permission-mode) never cycles, as in Claude Code: it stays until /mode changes it.
  if (mode === 'dontAsk') return mode;
  const modes = allowedModes(startedInBypass, autoAvailable);
  const i = modes.indexOf(mode);
  return modes[(i + 1) % modes.length] ?? 'default';
}

/** Why /mode does not offer a mode allowedModes left out (in the terminal and on the page). */
export function whyNotOffered(mode: PermissionMode): string {
  if (mode === 'auto') return 'auto mode needs a model for its classifier, and the offline model is not one';
  if (mode === 'dontAsk') return 'dontAsk only from settings or --permission-mode';
  return 'bypassPermissions only when cairn was started in it';
}

/** The permission mode as the header, the status bar and the page say it. */
export function modeLabel(mode: PermissionMode): string {
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

/** How an approved plan is carried out, as the mode chosen at approval says it. */
export function planModeNote(mode: PermissionMode): string {
  if (mode === 'default') return 'each edit asks first';
  if (mode === 'acceptEdits') return 'edits accepted without asking';
  return modeLabel(mode);
}
