import { answersFor, type ApprovalAnswer } from '../../src/permissions/approval-answers.js';
import type { PermissionRequest } from './types.js';

export type ApprovalChoiceKind = ApprovalAnswer;

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
  folder: { key: 'f', does: 'yes, always in this project, for the whole folder shown (the second choice)' },
  acceptEdits: { key: 'e', does: 'approve a plan and accept edits without asking' },
  no: { key: 'n', does: 'no, and tell cairn what to do instead (type it, Enter sends)' },
};
const K = (kind: ApprovalChoiceKind): ApprovalChoice['key'] => APPROVAL_KEYS[kind].key;

/** The answers offered for a request (answersFor decides which), each with its key and label. */
export function approvalChoices(request: PermissionRequest): ApprovalChoice[] {
  const plan = request.name === 'exit_plan_mode';
  const rules = request.suggestions.join(', ');
  const label = (kind: ApprovalChoiceKind): string => {
    switch (kind) {
      case 'yes':
        return plan ? 'Yes, and ask before each edit' : 'Yes';
      case 'session':
        return `Yes, and don't ask again this session for ${rules}`;
      case 'project':
        return `Yes, always in this project (${rules})`;
      case 'folder':
        return `Yes, always in this project, for the whole folder (${(request.folder ?? []).join(', ')})`;
      case 'acceptEdits':
        return 'Yes, and accept edits without asking';
      case 'no':
        return plan ? 'No, keep planning: tell cairn what to change' : 'No, and tell cairn what to do instead';
    }
  };
  return answersFor(request).map((kind) => ({ kind, key: K(kind), label: label(kind) }));
}
