// Headless with `--input-format stream-json`: the model's questions (ask_user_question) go out as
// Claude Code's control_request lines (subtype can_use_tool, tool AskUserQuestion) and the client's
// control_response line answers them, in the shapes of Claude Code's control protocol:
//   out: {"type":"control_request","request_id":"ask_…","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","input":{"questions":[…]},"tool_use_id":"toolu_…"}}
//   in:  {"type":"control_response","response":{"subtype":"success","request_id":"ask_…","response":{"behavior":"allow","updatedInput":{"answers":{"<question>":"<label>"}}}}}
// Approvals are not asked this way: a headless run still denies what needs approval.
import * as z from 'zod';
import { notice, type AgentEvent } from './events.js';
import type { PermissionAsk, PermissionDecision } from './permissions/ask.js';
import { answersProblem, ASK_USER_QUESTION, QuestionAnswerSchema, questionsOf, type Question, type QuestionAnswer } from './tools/ask-user-question-schema.js';
import type { ControlResponse, StreamJsonInput } from './headless-input.js';

/** The line that puts a question to the client (Claude Code's can_use_tool request for AskUserQuestion). */
export function controlRequestLine(request: PermissionAsk): Record<string, unknown> {
  return {
    type: 'control_request',
    request_id: request.request_id,
    request: {
      subtype: 'can_use_tool',
      tool_name: 'AskUserQuestion',
      input: request.input,
      tool_use_id: request.id,
      ...(request.agent !== undefined ? { agent: request.agent } : {}),
    },
  };
}

const AnswerValue = z.union([z.string(), z.array(z.string())]);
const AllowResponse = z.object({
  behavior: z.literal('allow'),
  updatedInput: z.object({ answers: z.union([z.record(z.string(), AnswerValue), z.array(QuestionAnswerSchema)]) }),
});
const DenyResponse = z.object({ behavior: z.literal('deny'), message: z.string().optional() });

/** One question's answer from Claude Code's form: an option's label, labels joined by ", " (or a list), anything else the "Other" text. */
function answerOf(q: Question, value: string | string[]): QuestionAnswer {
  const offered = new Set(q.options.map((o) => o.label));
  const whole = typeof value === 'string' ? value.trim() : undefined;
  const parts = whole === undefined ? (value as string[]).map((v) => v.trim()) : offered.has(whole) || !q.multiSelect ? [whole] : whole.split(',').map((v) => v.trim());
  const labels = parts.filter((p) => offered.has(p));
  const text = parts.filter((p) => p !== '' && !offered.has(p)).join(', ');
  return { question: q.question, labels, ...(text !== '' ? { text } : {}) };
}

/**
 * What a client's response says about `questions`: the decision to give the tool, or the problem
 * with it (naming the field), in which case the question stays open.
 */
export function decisionOfResponse(questions: readonly Question[], response: ControlResponse): { decision: PermissionDecision } | { problem: string } {
  if (response.subtype === 'error') return { decision: { behavior: 'deny', message: response.error } };
  const deny = DenyResponse.safeParse(response.response);
  if (deny.success) return { decision: deny.data.message ? { behavior: 'deny', message: deny.data.message } : { behavior: 'deny' } };
  const allow = AllowResponse.safeParse(response.response);
  if (!allow.success) {
    return { problem: 'response.response: expected {"behavior":"allow","updatedInput":{"answers":{"<question>":"<label or text>"}}} or {"behavior":"deny","message":"…"}' };
  }
  const given = allow.data.updatedInput.answers;
  let answers: QuestionAnswer[];
  if (Array.isArray(given)) answers = given;
  else {
    const asked = new Set(questions.map((q) => q.question));
    const stray = Object.keys(given).find((k) => !asked.has(k));
    if (stray !== undefined) return { problem: `updatedInput.answers: "${stray}" is not a question that was asked` };
    const missing = questions.find((q) => given[q.question] === undefined);
    if (missing) return { problem: `updatedInput.answers: no answer for "${missing.question}"` };
    answers = questions.map((q) => answerOf(q, given[q.question] ?? ''));
  }
  const problem = answersProblem(questions, answers);
  return problem !== undefined ? { problem: `updatedInput.${problem}` } : { decision: { behavior: 'allow', answers } };
}

interface QuestionSession {
  onAskWaiting(listener: (request: PermissionAsk) => void): () => void;
  pendingRequests(): PermissionAsk[];
  respond(requestId: string, decision: PermissionDecision): boolean;
  emit(event: AgentEvent): void;
}

const isQuestion = (r: PermissionAsk): boolean => r.name === ASK_USER_QUESTION;
const INPUT_ENDED: PermissionDecision = { behavior: 'deny', unanswered: 'the client\'s input ended before the question was answered, so it was declined' };

/**
 * Puts each question that starts waiting to the client as a control_request line (`write`), and
 * answers it from the client's control_response. A response that does not fit is told in an error
 * notice (an event line) naming the stdin line and the field, and the question stays open. When the
 * input ends, questions still open (and any asked later) are declined. Returns the disconnection.
 */
export function answerQuestionsFrom(input: StreamJsonInput, session: QuestionSession, write: (line: Record<string, unknown>) => void): () => void {
  const stopWaiting = session.onAskWaiting((request) => {
    if (!isQuestion(request)) return;
    if (input.ended) {
      session.respond(request.request_id, INPUT_ENDED);
      return;
    }
    write(controlRequestLine(request));
  });
  const stopResponses = input.onControlResponse((requestId, response, lineNo) => {
    const where = `--input-format stream-json: stdin line ${lineNo}`;
    const pending = session.pendingRequests().find((r) => r.request_id === requestId && isQuestion(r));
    if (!pending) return session.emit(notice('error', `${where}: control_response for ${JSON.stringify(requestId)}: no question with that request_id is waiting for an answer`));
    const result = decisionOfResponse(questionsOf(pending.input) ?? [], response);
    if ('problem' in result) {
      return session.emit(notice('error', `${where}: the answer to ${requestId} does not fit: ${result.problem}. The question is still open: send a corrected control_response, or {"behavior":"deny"} to decline it.`));
    }
    session.respond(requestId, result.decision);
  });
  const stopEnd = input.onEnd(() => {
    for (const request of session.pendingRequests().filter(isQuestion)) session.respond(request.request_id, INPUT_ENDED);
  });
  return () => {
    stopWaiting();
    stopResponses();
    stopEnd();
  };
}
