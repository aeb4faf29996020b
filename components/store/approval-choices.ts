import type { PermissionDecision } from '../../src/permissions/types.js';
import type { PermissionRequest } from './types.js';

export type ApprovalChoiceKind = 'yes' | 'session' | 'project' | 'folder' | 'acceptEdits' | 'no';

export interface ApprovalChoice {
  kind: ApprovalChoiceKind;
  key: 'y' | 'a' | 'p' | 'f' | 'e' | 'n';
  label: string;
}

// A plan is approved into a mode, never remembered as a rule.
const PLAN_CHOICES: ApprovalChoice[] = [
  { kind: 'yes', key: 'y', label: 'Yes, and ask before each edit' },
  { kind: 'acceptEdits', key: 'e', label: 'Yes, and accept edits without asking' },
  { kind: 'no', key: 'n', label: 'No, keep planning: tell cairn what to change' },
];

/** The answers offered for a request; "don't ask again" only when there is a rule to remember. */
export function approvalChoices(request: PermissionRequest): ApprovalChoice[] {
  if (request.name === 'exit_plan_mode') return PLAN_CHOICES;
  const rules = request.suggestions.join(', ');
  const narrower = request.narrower ?? [];
  const remember: ApprovalChoice[] =
    request.suggestions.length > 0
      ? [
          { kind: 'session', key: 'a', label: `Yes, and don't ask again this session for ${rules}` },
          { kind: 'project', key: 'p', label: `Yes, always in this project (${rules})` },
          ...(narrower.length > 0 ? [{ kind: 'folder' as const, key: 'f' as const, label: `Yes, always in this project, only ${narrower.join(', ')}` }] : []),
        ]
      : [];
  return [
    { kind: 'yes', key: 'y', label: 'Yes' },
    ...remember,
    { kind: 'no', key: 'n', label: 'No, and tell cairn what to do instead' },
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
