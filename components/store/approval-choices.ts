import { answersFor, type ApprovalAnswer } from '../../src/permissions/approval-answers.js';
import { boundKeyLabel } from '../keys/key-help.js';
import type { KeyCommand } from '../keys/keymap.js';
import type { PermissionRequest } from './types.js';

export type ApprovalChoiceKind = ApprovalAnswer;

export interface ApprovalChoice {
  kind: ApprovalChoiceKind;
  /** The key table's command that gives this answer. */
  command: KeyCommand;
  /** Its key as shown (the user's binding, if rebound). */
  key: string;
  label: string;
}

/** Each answer's command in the key table (keys/keymap.ts), which holds its keys and /help text. */
export const APPROVAL_COMMANDS: Readonly<Record<ApprovalChoiceKind, KeyCommand>> = {
  yes: 'answerYes',
  session: 'answerSession',
  project: 'answerProject',
  folder: 'answerFolder',
  acceptEdits: 'answerAcceptEdits',
  no: 'answerNo',
};

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
  return answersFor(request).map((kind) => ({ kind, command: APPROVAL_COMMANDS[kind], key: boundKeyLabel(APPROVAL_COMMANDS[kind]), label: label(kind) }));
}
