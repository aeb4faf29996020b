import type { DecidedBy, PermissionCheck } from './types.js';

const withBy = (by: DecidedBy | undefined): { by?: DecidedBy } => (by ? { by } : {});
export const allow = (reason: string, by?: DecidedBy): PermissionCheck => ({ behavior: 'allow', reason, ...withBy(by) });
/** Allowed because the command was judged read-only: it runs in the read-only sandbox where there is one. */
export const allowReadOnly = (reason: string): PermissionCheck => ({ behavior: 'allow', reason, readOnly: true });
export const deny = (reason: string, by?: DecidedBy): PermissionCheck => ({ behavior: 'deny', reason, ...withBy(by) });
export const ask = (reason: string, suggestions: string[], folder?: string[], by?: DecidedBy): PermissionCheck => ({
  behavior: 'ask',
  reason,
  suggestions: [...new Set(suggestions)],
  ...(folder && folder.length > 0 ? { folder: [...new Set(folder)] } : {}),
  ...withBy(by),
});

/** An ask where containment ends: auto mode's classifier may answer it (see PermissionCheck). */
export const askBeyondContainment = (reason: string, suggestions: string[], folder?: string[]): PermissionCheck => ({
  behavior: 'ask',
  reason,
  suggestions: [...new Set(suggestions)],
  ...(folder && folder.length > 0 ? { folder: [...new Set(folder)] } : {}),
  classifiable: true,
});
/** The same verdict, classifiable only when `when` holds. */
export const classifiableIf = (verdict: PermissionCheck, when: boolean): PermissionCheck =>
  verdict.behavior === 'ask' && when ? { ...verdict, classifiable: true } : verdict;

/** The same verdict, for the user alone to answer when `when` holds (see PermissionCheck). */
export const userOnlyIf = (verdict: PermissionCheck, when: boolean): PermissionCheck =>
  verdict.behavior === 'ask' && when ? { ...verdict, userOnly: true } : verdict;

/** Decided by these rules of one list (their texts as the checker holds them). */
export const byRule = (list: 'allow' | 'ask' | 'deny', ...rules: Array<{ text: string }>): DecidedBy => ({ kind: 'rule', list, rules: [...new Set(rules.map((r) => r.text))] });
export const BY_MODE: DecidedBy = { kind: 'mode' };
export const BY_SANDBOX: DecidedBy = { kind: 'sandbox' };

export const quoteList = (items: string[]): string => items.map((i) => JSON.stringify(i)).join(', ');
