import type { Key } from 'ink';
import type { AppContext } from '../actions/app-context.js';
import { askKey } from '../store/reduce-events.js';
import { answersOf, chooseOption, isAnswered, questionUiOf, moveCursor, nextUnanswered, otherIndex, setOtherText, switchTab, type QuestionUi } from '../store/question-picker.js';
import type { PermissionRequest, TuiState } from '../store/types.js';
import { ASK_USER_QUESTION, questionsOf, type Question } from '../../src/tools/ask-user-question-schema.js';
import type { PermissionDecision } from '../../src/permissions/ask.js';
import { PASTE_START } from '../prompt/terminal-input.js';
import { expandPastes } from '../prompt/editor.js';
import { activeKeymap, is, matches, typedText } from './keymap.js';
import { applyEditorKey } from './editor-keys.js';
import { blankKey } from './split-keys.js';

/** The questions of the waiting request when it is a question from the model (ask_user_question). */
export function waitingQuestions(state: TuiState): Question[] | undefined {
  const request = state.approvals[0];
  return request?.name === ASK_USER_QUESTION ? questionsOf(request.input) : undefined;
}


/** Whether the waiting question's "Other" field has the keys (typed text, several characters at once included, is its text). */
export function questionFieldOpen(state: TuiState): boolean {
  return waitingQuestions(state) !== undefined && state.approval.question?.editing === true;
}

/** Whether a bracketed paste is going into the open "Other" field (started in this event, or still arriving). */
export function questionPasteInto(state: TuiState, input: string): boolean {
  return questionFieldOpen(state) && (state.approval.question?.pasting !== undefined || PASTE_START.test(input));
}

/**
 * A bracketed paste into the open "Other" field: the editor's paste handling, on one line. Its
 * bytes are text (a pasted Esc, digit or Tab answers nothing); Enter typed after it sends as usual.
 */
export function handleQuestionPaste(input: string, key: Key, state: TuiState, deps: AppContext): void {
  const questions = waitingQuestions(state);
  if (!questions) return;
  const { pasting, ...ui } = questionUiOf(state.approval, questions);
  const text = ui.other[ui.tab] ?? '';
  const result = applyEditorKey({ text, cursor: text.length, pastes: [], ...(pasting !== undefined ? { pasting } : {}) }, input, key, { history: [] });
  const typed = setOtherText(ui, expandPastes(result.state.text, result.state.pastes));
  deps.store.dispatch({ type: 'questionUi', ui: result.state.pasting !== undefined ? { ...typed, pasting: result.state.pasting } : typed });
  if (result.submit !== undefined) handleQuestionKey('\r', { ...blankKey(), return: true }, deps.store.getSnapshot(), deps);
}

function respond(request: PermissionRequest, decision: PermissionDecision, deps: AppContext): void {
  const id = askKey(request);
  deps.store.dispatch({ type: 'approvalAnswered', id, allowed: decision.behavior === 'allow', at: deps.now() });
  deps.session.respond(id, decision);
}

/** Which option a number key names (1 is the first; the table's nth key is the nth option), if any. */
function optionKey(input: string, key: Key): number | undefined {
  const index = activeKeymap().pickOption.keys.findIndex((spec) => matches(spec, input, key));
  return index >= 0 ? index : undefined;
}

/**
 * The question picker takes every key while it waits (the type-ahead guard decides first, as for
 * approvals): numbers and ↑↓ choose, Space ticks in a multiple choice, Tab moves between questions,
 * "Other" opens a text field, Enter takes the option and, once every question has an answer, sends
 * them; Esc declines and the model is told so (the turn goes on).
 */
export function handleQuestionKey(input: string, key: Key, state: TuiState, deps: AppContext): void {
  const request = state.approvals[0];
  const questions = waitingQuestions(state);
  if (!request || !questions) return;
  const ui = questionUiOf(state.approval, questions);
  const set = (next: QuestionUi): void => deps.store.dispatch({ type: 'questionUi', ui: next });
  const q = questions[ui.tab];
  if (!q) return;

  // Once the focused question has its answer: the next one without, or send them all.
  const advance = (next: QuestionUi): void => {
    if (!isAnswered(q, next, next.tab)) return set(next);
    const open = nextUnanswered(questions, next);
    if (open === undefined) return respond(request, { behavior: 'allow', answers: answersOf(questions, next) }, deps);
    set({ ...next, tab: open, editing: false });
  };

  if (is('back', input, key)) return respond(request, { behavior: 'deny' }, deps);
  if (ui.editing) {
    const text = ui.other[ui.tab] ?? '';
    if (is('confirm', input, key)) return advance({ ...ui, editing: false });
    if (is('questionNext', input, key) || is('questionPrev', input, key)) return set(switchTab(questions, ui, is('questionNext', input, key) ? 1 : -1));
    if (is('up', input, key) || is('down', input, key)) return set(moveCursor(questions, ui, is('up', input, key) ? -1 : 1));
    if (is('deleteBack', input, key)) return set(setOtherText(ui, [...text].slice(0, -1).join('')));
    const entered = typedText(input, key);
    if (entered === undefined) return;
    // Fast typing can deliver the text and Enter in one chunk.
    const submits = entered.length > 1 && entered.endsWith('\r') && !entered.slice(0, -1).includes('\r');
    const typed = setOtherText(ui, text + (submits ? entered.slice(0, -1) : entered));
    return submits ? advance({ ...typed, editing: false }) : set(typed);
  }
  if (is('questionNext', input, key)) return set(switchTab(questions, ui, 1));
  if (is('questionPrev', input, key)) return set(switchTab(questions, ui, -1));
  if (is('up', input, key)) return set(moveCursor(questions, ui, -1));
  if (is('down', input, key)) return set(moveCursor(questions, ui, 1));
  const cursor = ui.cursor[ui.tab] ?? 0;
  const numbered = optionKey(input, key);
  const option = numbered !== undefined && numbered <= otherIndex(q) ? numbered : undefined;
  if (option !== undefined || is('toggle', input, key)) {
    const chosen = chooseOption(questions, ui, option ?? cursor);
    // A single choice is its answer (Other waits for its text); a multiple choice waits for Enter.
    return q.multiSelect || chosen.editing ? set(chosen) : advance(chosen);
  }
  if (is('confirm', input, key)) {
    const picked = ui.picked[ui.tab] ?? [];
    // Enter takes the option under the cursor unless a multiple choice already has its ticks.
    const chosen = q.multiSelect && picked.length > 0 ? ui : q.multiSelect || !picked.includes(cursor) ? chooseOption(questions, ui, cursor) : ui;
    return chosen.editing ? set(chosen) : advance(chosen);
  }
}
