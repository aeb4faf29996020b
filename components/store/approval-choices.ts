import type { PermissionDecision } from '../../src/permissions/types.js';
import type { PermissionRequest } from './types.js';

export type ApprovalChoiceKind = 'yes' | 'session' | 'project' | 'folder' | 'acceptEdits' | 'no';

export interface ApprovalChoice {
  kind: ApprovalChoiceKind;
  key: 'y' | 'a' | 'p' | 'f' | 'e' | 'n';
  label: string;
}

/** Each answer's key, and what /help says it does. */
export const APPROVAL_KEYS: Readonly<Record<ApprovalChoiceKind, { readonly key: ApprovalChoice['key']; readonly does: string }>> = {
  yes: { key: 'y', does: 'yes (once)' },
  session: { key: 'a', does: "yes, and don't ask again this session (for the rule shown)" },
  project: { key: 'p', does: 'yes, always in this project (the rule is saved in .cairn/settings.local.json)' },
  folder: { key: 'f', does: 'yes, always in this project, only in the folder shown' },
  acceptEdits: { key: 'e', does: 'approve a plan and accept edits without asking' },
  no: { key: 'n', does: 'no, and tell cairn what to do instead (type it, Enter sends)' },
};
const K = (kind: ApprovalChoiceKind): ApprovalChoice['key'] => APPROVAL_KEYS[kind].key;

// A plan is approved into a mode, never remembered as a rule.
const PLAN_CHOICES: ApprovalChoice[] = [
  { kind: 'yes', key: K('yes'), label: 'Yes, and ask before each edit' },
  { kind: 'acceptEdits', key: K('acceptEdits'), label: 'Yes, and accept edits without asking' },
  { kind: 'no', key: K('no'), label: 'No, keep planning: tell cairn what to change' },
];

/** The answers offered for a request; "don't ask again" only when there is a rule to remember. */
export function approvalChoices(request: PermissionRequest): ApprovalChoice[] {
  if (request.name === 'exit_plan_mode') return PLAN_CHOICES;
  const rules = request.suggestions.join(', ');
  const narrower = request.narrower ?? [];
  const remember: ApprovalChoice[] =
    request.suggestions.length > 0
      ? [
          { kind: 'session', key: K('session'), label: `Yes, and don't ask again this session for ${rules}` },
          { kind: 'project', key: K('project'), label: `Yes, always in this project (${rules})` },
          ...(narrower.length > 0 ? [{ kind: 'folder' as const, key: K('folder'), label: `Yes, always in this project, only ${narrower.join(', ')}` }] : []),
        ]
      : [];
  return [
    { kind: 'yes', key: K('yes'), label: 'Yes' },
    ...remember,
    { kind: 'no', key: K('no'), label: 'No, and tell cairn what to do instead' },
  ];
}

export function decisionFor(kind: ApprovalChoiceKind, request: PermissionRequest, denyText: string): PermissionDecision {
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
      return { behavior: 'allow', remember: 'project', rules: [...(request.narrower ?? [])] };
    case 'no': {
      const message = denyText.trim();
      return message ? { behavior: 'deny', message } : { behavior: 'deny' };
    }
  }
}
