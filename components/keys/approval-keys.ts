import type { Key } from 'ink';
import type { ApprovalChoiceKind } from '../store/approval-choices.js';
import { expandPastes } from '../prompt/editor.js';
import { ASK_USER_QUESTION } from '../../src/tools/ask-user-question-schema.js';
import { applyEditorKey } from './editor-keys.js';
import { approvalChoices } from '../store/approval-choices.js';
import { askKey } from '../store/reduce-events.js';
import { decisionFor } from '../../src/permissions/approval-answers.js';
import type { TuiState } from '../store/types.js';
import type { AppContext } from '../actions/app-context.js';
import { interrupt } from '../actions/interrupt.js';
import { is, isAnswer, typedText } from './keymap.js';
import { openViewer } from './viewer-keys.js';
import { itemAt } from '../../src/util/invariant.js';

/** Whether the "tell cairn what to do instead" field has the focus (its choice is selected). */
export function denyFieldOpen(state: TuiState): boolean {
  const request = state.approvals[0];
  // A question has no "what to do instead" field: its text goes to the picker's "Other".
  if (!request || request.name === ASK_USER_QUESTION) return false;
  const choices = approvalChoices(request);
  return (choices[state.approval.choice] ?? itemAt(choices, 0, 'approval choice')).kind === 'no';
}

function answerWith(kind: ApprovalChoiceKind, denyText: string, state: TuiState, deps: AppContext): void {
  const request = state.approvals[0];
  if (!request) return;
  const decision = decisionFor(kind, request, denyText);
  // Named by the ask's own id: parallel subagents' asks can share a tool_use id.
  const id = askKey(request);
  deps.store.dispatch({ type: 'approvalAnswered', id, allowed: decision.behavior === 'allow', at: deps.now() });
  deps.session.respond(id, decision);
}

/** A bracketed paste into the open deny field: the editor's paste handling, on one line. */
export function handleApprovalPaste(input: string, key: Key, state: TuiState, deps: AppContext): void {
  const { denyText, pasting } = state.approval;
  const field = { text: denyText, cursor: denyText.length, pastes: [], ...(pasting !== undefined ? { pasting } : {}) };
  const result = applyEditorKey(field, input, key, { history: [] });
  const text = expandPastes(result.state.text, result.state.pastes).replace(/\s*\n\s*/g, ' ');
  if (result.submit !== undefined) return answerWith('no', result.submit.replace(/\s*\n\s*/g, ' '), state, deps);
  deps.store.dispatch({ type: 'approvalText', text, ...(result.state.pasting !== undefined ? { pasting: result.state.pasting } : {}) });
}

/** The approval prompt takes every key while it waits; the editor's draft is left alone. */
export function handleApprovalKey(input: string, key: Key, state: TuiState, deps: AppContext): void {
  const request = state.approvals[0];
  if (!request) return;
  const choices = approvalChoices(request);
  const current = choices[state.approval.choice] ?? itemAt(choices, 0, 'approval choice');
  const answer = (kind: ApprovalChoiceKind, denyText = state.approval.denyText): void => answerWith(kind, denyText, state, deps);
  const select = (choice: number): void => deps.store.dispatch({ type: 'approvalChoice', choice: (choice + choices.length) % choices.length });

  if (is('back', input, key)) {
    // Esc is "no, and stop": the answer first, so the loop reads a denial, then the turn ends as
    // any interruption does (queued prompts go back into the editor).
    answer('no');
    interrupt(deps);
    return;
  }
  if (is('confirm', input, key)) return answer(current.kind);
  if (is('up', input, key)) return select(state.approval.choice - 1);
  if (is('down', input, key)) return select(state.approval.choice + 1);
  if (current.kind === 'no') {
    // The "tell cairn what to do instead" field has the focus: keys are text.
    const text = state.approval.denyText;
    const entered = typedText(input, key);
    if (is('deleteBack', input, key)) deps.store.dispatch({ type: 'approvalText', text: [...text].slice(0, -1).join('') });
    else if (entered !== undefined) {
      // Fast typing (or a terminal that batches keys) can deliver the text and Enter in one chunk.
      const submits = entered.length > 1 && entered.endsWith('\r') && !entered.slice(0, -1).includes('\r');
      const typed = text + (submits ? entered.slice(0, -1) : entered).replace(/[\r\n]+/g, ' ');
      if (submits) return answer('no', typed);
      deps.store.dispatch({ type: 'approvalText', text: typed });
    }
    return;
  }
  // Everything it asks about, unabridged; the approval waits behind the view.
  if (is('viewFull', input, key)) return openViewer({ kind: 'approval', id: request.id }, deps);
  const shortcut = choices.findIndex((c) => isAnswer(c.command, input, key));
  const chosen = choices[shortcut];
  if (!chosen) return;
  if (chosen.kind === 'no') select(shortcut);
  else answer(chosen.kind);
}
