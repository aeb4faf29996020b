import type { Question, QuestionAnswer } from '../../src/tools/ask-user-question-schema.js';

/**
 * The question picker's state (ask_user_question), kept with the approval it answers: which
 * question has the focus, each one's cursor and chosen options, its "Other" text, and whether that
 * field has the keys. Option indices run 0..options.length, the last one being "Other".
 */
export interface QuestionUi {
  readonly tab: number;
  readonly cursor: readonly number[];
  readonly picked: readonly (readonly number[])[];
  readonly other: readonly string[];
  readonly editing: boolean;
  /** A bracketed paste into the "Other" field still arriving (its text so far). */
  readonly pasting?: string;
}

export function initialQuestionUi(questions: readonly Question[]): QuestionUi {
  return { tab: 0, cursor: questions.map(() => 0), picked: questions.map(() => []), other: questions.map(() => ''), editing: false };
}

const replaced = <T>(list: readonly T[], index: number, value: T): T[] => list.map((v, i) => (i === index ? value : v));

/** The "Other" row's index for a question. */
export const otherIndex = (q: Question): number => q.options.length;

/** Whether a question has an answer: an option chosen, or "Other" with text. */
export function isAnswered(q: Question, ui: QuestionUi, index: number): boolean {
  const picked = ui.picked[index] ?? [];
  const other = (ui.other[index] ?? '').trim() !== '';
  return picked.some((p) => p !== otherIndex(q) || other);
}

export function moveCursor(questions: readonly Question[], ui: QuestionUi, delta: number): QuestionUi {
  const q = questions[ui.tab];
  if (!q) return ui;
  const rows = q.options.length + 1;
  const at = ((ui.cursor[ui.tab] ?? 0) + delta + rows) % rows;
  return { ...ui, cursor: replaced(ui.cursor, ui.tab, at), editing: false };
}

export function switchTab(questions: readonly Question[], ui: QuestionUi, delta: number): QuestionUi {
  return { ...ui, tab: (ui.tab + delta + questions.length) % questions.length, editing: false };
}

/**
 * Chooses option `index` of the focused question: a single choice replaces the answer, a multiple
 * choice toggles it. Choosing "Other" opens its text field.
 */
export function chooseOption(questions: readonly Question[], ui: QuestionUi, index: number): QuestionUi {
  const q = questions[ui.tab];
  if (!q || index < 0 || index > otherIndex(q)) return ui;
  const was = ui.picked[ui.tab] ?? [];
  const on = q.multiSelect ? !was.includes(index) : true;
  const picked = q.multiSelect ? (on ? [...was, index].sort((a, b) => a - b) : was.filter((p) => p !== index)) : [index];
  return { ...ui, cursor: replaced(ui.cursor, ui.tab, index), picked: replaced(ui.picked, ui.tab, picked), editing: index === otherIndex(q) && on };
}

export function setOtherText(ui: QuestionUi, text: string): QuestionUi {
  return { ...ui, other: replaced(ui.other, ui.tab, text.replace(/[\r\n]+/g, ' ')) };
}

/** The next question without an answer after the focused one (wrapping), or undefined when all have one. */
export function nextUnanswered(questions: readonly Question[], ui: QuestionUi): number | undefined {
  for (let step = 1; step <= questions.length; step++) {
    const i = (ui.tab + step) % questions.length;
    const q = questions[i];
    if (q && !isAnswered(q, ui, i)) return i;
  }
  return undefined;
}

/** The answers as the tool gives them to the model: each question's chosen labels and its "Other" text. */
export function answersOf(questions: readonly Question[], ui: QuestionUi): QuestionAnswer[] {
  return questions.map((q, i) => {
    const picked = ui.picked[i] ?? [];
    const labels = picked.flatMap((p) => (p < q.options.length ? [q.options[p]?.label ?? ''] : []));
    const text = (ui.other[i] ?? '').trim();
    return picked.includes(otherIndex(q)) && text !== '' ? { question: q.question, labels, text } : { question: q.question, labels };
  });
}

/** The picker's state for a request: what keys made of it, or the start. */
export function questionUiOf(ui: { readonly question?: QuestionUi | undefined }, questions: readonly Question[]): QuestionUi {
  return ui.question && ui.question.picked.length === questions.length ? ui.question : initialQuestionUi(questions);
}
