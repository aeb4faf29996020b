import type { ColorToken } from '../theme/theme.js';
import type { ToolStatus } from '../store/types.js';

// Every status's glyph and colour in one table.
export const STATUS_GLYPHS: Readonly<Record<Exclude<ToolStatus, 'running'>, string>> = {
  awaiting_approval: '?',
  success: '✓',
  error: '✗',
  denied: '⊘',
  interrupted: '■',
};

export const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'] as const;

export function statusGlyph(status: ToolStatus, tick: number): string {
  switch (status) {
    case 'running':
      return SPINNER_FRAMES[tick % SPINNER_FRAMES.length] ?? SPINNER_FRAMES[0];
    case 'awaiting_approval':
    case 'success':
    case 'error':
    case 'denied':
    case 'interrupted':
      return STATUS_GLYPHS[status];
  }
}

export function statusColor(status: ToolStatus): ColorToken {
  switch (status) {
    case 'running':
      return 'running';
    case 'awaiting_approval':
      return 'warning';
    case 'success':
      return 'success';
    case 'error':
    case 'denied':
      return 'error';
    case 'interrupted':
      return 'muted';
  }
}

/** Expanded while something is happening or went wrong; collapsed to the header once it worked. */
export function expandedByDefault(status: ToolStatus): boolean {
  switch (status) {
    case 'running':
    case 'awaiting_approval':
    case 'error':
    case 'denied':
      return true;
    case 'success':
    case 'interrupted':
      return false;
  }
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${Math.round((ms % 60_000) / 1000)}s`;
}
