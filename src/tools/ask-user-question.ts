import type { AskPermission, PermissionChecker } from '../permissions/types.js';
import { askId } from '../permissions/approval-answers.js';
import { errorMessage } from '../util/error-message.js';
import { titleLine, type CallView } from './call-view.js';
import { answersProblem, ASK_USER_QUESTION, QuestionsInputSchema, type QuestionAnswer, type QuestionsInput } from './ask-user-question-schema.js';
import { defineTool } from './tool.js';

export { ASK_USER_QUESTION };

const DESCRIPTION =
  'Asks the user 1 to 4 multiple-choice questions and waits for the answers. Use it when a choice is theirs to make ' +
  '(an approach, a library, a trade-off, what they meant) and guessing would waste work; not for things you can find out yourself, ' +
  'and not to ask for approval of a plan (exit_plan_mode does that). Each question has a short header and 2 to 4 options with a label ' +
  'and a description; set multiSelect when several may apply. The user can always write their own answer ("Other"). ' +
  'The result gives each question\'s chosen labels and any text; if they decline, carry on with your best judgement or stop and say what you need.';

function view(input: QuestionsInput): CallView {
  const first = input.questions[0];
  const more = input.questions.length > 1 ? ` (+${input.questions.length - 1} more)` : '';
  return { title: `${titleLine(first?.question ?? '')}${more}`, subject: { kind: 'question', question: input.questions.map((q) => q.question).join('\n') } };
}

/** What the model reads: each question with its answer, as Claude Code words it. */
export function answersText(answers: readonly QuestionAnswer[]): string {
  const each = answers.map((a) => `"${a.question}"="${[...a.labels, ...(a.text?.trim() ? [a.text.trim()] : [])].join(', ')}"`);
  return `User has answered your questions: ${each.join(', ')}. You can now continue with the user's answers in mind.`;
}

/**
 * Claude Code's AskUserQuestion: the questions go to the user on the session's ask channel (the
 * terminal's picker, the page, a stream-json client), as an approval does, and the answers come
 * back as the result. A subagent's or teammate's question goes the same way, naming who asks.
 * `questions` is the session's channel, used when the call has none of its own (headless with a
 * stream-json client, where approvals are not asked but questions are); undefined when no one can
 * answer. Offered only when someone can answer and the mode is not dontAsk.
 */
export function createAskUserQuestionTool(permissions: Pick<PermissionChecker, 'mode'>, questions: () => AskPermission | undefined) {
  return defineTool({
    name: ASK_USER_QUESTION,
    description: DESCRIPTION,
    inputSchema: QuestionsInputSchema,
    describe: view,
    kind: 'other',
    // Asking changes nothing: the question itself is the prompt, in plan mode too.
    effects: () => 'none',
    unavailable: () => {
      if (!questions()) return 'no one can answer questions in this session (cairn -p without --input-format stream-json)';
      return permissions.mode === 'dontAsk' ? 'the session is in dontAsk mode: nothing is put to the user' : undefined;
    },
    async call(input, ctx) {
      const ask = ctx.ask ?? questions();
      if (!ask) return { content: 'No one can answer questions here: decide with your best judgement and say what you assumed.', isError: true };
      const request = {
        id: ctx.toolUseId ?? askId(),
        request_id: askId(),
        name: ASK_USER_QUESTION,
        input,
        reason: '',
        suggestions: [],
        ...(ctx.agentName !== undefined ? { agent: ctx.agentName } : {}),
        view: view(input),
      };
      ctx.emit?.({ type: 'permission_request', ...request });
      let decision;
      try {
        decision = await ask(request, ctx.signal);
      } catch (error) {
        if (ctx.signal.aborted) return { content: 'The user interrupted before answering: wait for their next message.', isError: true };
        return { content: `The question could not be put to the user: ${errorMessage(error)}. Decide with your best judgement and say what you assumed.`, isError: true };
      }
      if (decision.behavior === 'deny') {
        const why = decision.unanswered ?? (decision.message ? `the user declined to answer and said: ${decision.message}` : 'the user declined to answer');
        return { content: `${why}. Do not ask the same again: carry on with your best judgement, or stop and say what you need from them.`, isError: true };
      }
      const answers = decision.answers ?? [];
      const problem = answersProblem(input.questions, answers);
      if (problem !== undefined) return { content: `The answer did not fit the questions (${problem}); ask again if you still need it.`, isError: true };
      return { content: answersText(answers) };
    },
  });
}
