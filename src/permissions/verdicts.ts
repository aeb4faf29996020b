import type { PermissionCheck } from './types.js';

export const allow = (reason: string): PermissionCheck => ({ behavior: 'allow', reason });
/** Allowed because the command was judged read-only: it runs in the read-only sandbox where there is one. */
export const allowReadOnly = (reason: string): PermissionCheck => ({ behavior: 'allow', reason, readOnly: true });
export const deny = (reason: string): PermissionCheck => ({ behavior: 'deny', reason });
export const ask = (reason: string, suggestions: string[], folder?: string[]): PermissionCheck => ({
  behavior: 'ask',
  reason,
  suggestions: [...new Set(suggestions)],
  ...(folder && folder.length > 0 ? { folder: [...new Set(folder)] } : {}),
});

export const quoteList = (items: string[]): string => items.map((i) => JSON.stringify(i)).join(', ');
