import { randomUUID } from 'node:crypto';
import type { PermissionAsk, PermissionDecision } from './types.js';

/** A new ask's own id (its request_id): unguessable, so no other ask, and no model, can name it. */
export const askId = (): string => `ask_${randomUUID()}`;

/**
 * The answers a person can give to a permission request, whatever face they use (the terminal's
 * keys, the web page's buttons). Only rules the request itself offered can be remembered: an
 * answer never carries a rule of its own, so a page or a key cannot widen what was asked.
 */
export type ApprovalAnswer = 'yes' | 'session' | 'project' | 'folder' | 'acceptEdits' | 'no';

export const APPROVAL_ANSWERS: readonly ApprovalAnswer[] = ['yes', 'session', 'project', 'folder', 'acceptEdits', 'no'];

/** Which answers a request offers: "don't ask again" only with a rule to remember, plans their own. */
export function answersFor(request: Pick<PermissionAsk, 'name' | 'suggestions' | 'folder'>): ApprovalAnswer[] {
  if (request.name === 'exit_plan_mode') return ['yes', 'acceptEdits', 'no'];
  // A question is answered with its options (the picker, the page's /question); "no" declines it.
  if (request.name === 'ask_user_question') return ['no'];
  const remember: ApprovalAnswer[] = request.suggestions.length > 0 ? ['session', 'project', ...((request.folder ?? []).length > 0 ? (['folder'] as const) : [])] : [];
  return ['yes', ...remember, 'no'];
}

export function decisionFor(kind: ApprovalAnswer, request: Pick<PermissionAsk, 'suggestions' | 'folder'>, denyText: string): PermissionDecision {
  switch (kind) {
    case 'yes':
      return { behavior: 'allow' };
    case 'session':
      return { behavior: 'allow', remember: 'session', rules: [...request.suggestions] };
    case 'project':
      return { behavior: 'allow', remember: 'project', rules: [...request.suggestions] };
    case 'acceptEdits':
      return { behavior: 'allow', mode: 'acceptEdits' };
    case 'folder':
      return { behavior: 'allow', remember: 'project', rules: [...(request.folder ?? [])] };
    case 'no': {
      const message = denyText.trim();
      return message ? { behavior: 'deny', message } : { behavior: 'deny' };
    }
  }
}
