import * as z from 'zod';

// The question tool's input and answers, in Claude Code's AskUserQuestion field names. This file
// imports nothing but zod: the terminal's picker and the page read the same shapes.

/** The tool's name (Claude Code's AskUserQuestion). */
export const ASK_USER_QUESTION = 'ask_user_question';

export const QuestionOptionSchema = z.object({
  label: z.string().min(1).describe('The choice as the user reads it: 1 to 5 words'),
  description: z.string().describe('What choosing it means, or its trade-off'),
});

export const QuestionSchema = z.object({
  question: z.string().min(1).describe('The whole question, ending with a question mark'),
  header: z.string().min(1).describe('A very short label for it (at most 12 characters), e.g. "Database"'),
  options: z.array(QuestionOptionSchema).min(2).max(4).describe('2 to 4 choices; the user can always answer "Other" with their own text instead'),
  multiSelect: z.boolean().default(false).describe('true lets the user choose several options'),
});
export type Question = z.infer<typeof QuestionSchema>;

export const QuestionsInputSchema = z.object({
  questions: z.array(QuestionSchema).min(1).max(4).describe('1 to 4 questions, asked together'),
});
export type QuestionsInput = z.infer<typeof QuestionsInputSchema>;

/** One question's answer: the labels of the options chosen, and the "Other" text if the user wrote one. */
export const QuestionAnswerSchema = z.object({
  question: z.string(),
  labels: z.array(z.string()),
  text: z.string().optional(),
});
export type QuestionAnswer = z.infer<typeof QuestionAnswerSchema>;

/** The questions a request asks (its input), or undefined when it is not a question's input. */
export function questionsOf(input: unknown): Question[] | undefined {
  const parsed = QuestionsInputSchema.safeParse(input);
  return parsed.success ? parsed.data.questions : undefined;
}

/**
 * Problems with a set of answers to `questions` (a page's or a key's): one per question, in order, each
 * naming the question it answers, choosing only labels it offers (one unless multiSelect), with a
 * label or text. Undefined when they fit. A page cannot make a question say something it did not.
 */
export function answersProblem(questions: readonly Question[], answers: readonly QuestionAnswer[]): string | undefined {
  if (answers.length !== questions.length) return `answers: ${answers.length} given for ${questions.length} question${questions.length === 1 ? '' : 's'}`;
  for (const [i, q] of questions.entries()) {
    const a = answers[i];
    if (!a) return `answers[${i}]: missing`;
    if (a.question !== q.question) return `answers[${i}].question: does not match the question asked ("${q.question}")`;
    const offered = new Set(q.options.map((o) => o.label));
    const unknown = a.labels.find((l) => !offered.has(l));
    if (unknown !== undefined) return `answers[${i}].labels: "${unknown}" is not one of the options`;
    if (!q.multiSelect && a.labels.length + (a.text ? 1 : 0) > 1) return `answers[${i}]: the question takes one answer`;
    if (a.labels.length === 0 && !a.text?.trim()) return `answers[${i}]: choose an option or write an answer`;
  }
  return undefined;
}
