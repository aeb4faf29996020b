// /btw: a question asked with the conversation as context, whose question and answer stay out of it.
// One model call outside the loop: no tool runs, the history is not touched; only its tokens are told.
import { estimateRequestTokens } from '../context/tokens.js';
import { textOf, type Message } from '../messages.js';
import type { ModelProvider, ToolSpec } from '../providers/provider.js';
import type { Usage } from '../usage.js';
import { errorMessage } from '../util/error-message.js';

/** Said to the model with the question: it answers from what it knows and calls no tool. */
export const SIDE_QUESTION_NOTE =
  'This is a side question (/btw): answer it briefly from the conversation so far. Do not call tools; ' +
  'the answer is shown once and is not kept in the conversation.';

export interface SideQuestionRequest {
  provider: ModelProvider;
  system: string;
  /** The conversation as it stands (complete turns only: a running turn's messages are not in it yet). */
  history: readonly Message[];
  /** The tools the loop offers, sent so a history with tool calls stays valid for the API; none is run. */
  tools: readonly ToolSpec[];
  question: string;
  maxTokens: number;
  signal: AbortSignal;
  /** The spending cap's check before the call: a reason to refuse it, or undefined. */
  refuseModelCall?: (next: { model: string; inputTokens: number }) => string | undefined;
  /** The call's token counts as the provider reports them (for /usage and the spending cap). */
  onUsage?: (usage: Usage) => void;
}

export type SideAnswer = { ok: true; text: string } | { ok: false; error: string };

/** The history with the question after it: joined to a last user message (tool results) so roles still alternate. */
export function sideQuestionMessages(history: readonly Message[], question: string): Message[] {
  const text = { type: 'text' as const, text: `${SIDE_QUESTION_NOTE}\n\n${question}` };
  const last = history.at(-1);
  if (last?.role === 'user') return [...history.slice(0, -1), { role: 'user', content: [...last.content, text] }];
  return [...history, { role: 'user', content: [text] }];
}

/** Asks the model once; never throws (a failure is the answer's `error`). */
export async function askSideQuestion(req: SideQuestionRequest): Promise<SideAnswer> {
  try {
    const messages = sideQuestionMessages(req.history, req.question);
    const refused = req.refuseModelCall?.({ model: req.provider.model, inputTokens: estimateRequestTokens(req.system, messages, req.provider) });
    if (refused !== undefined) return { ok: false, error: refused };
    let answer: Message | undefined;
    for await (const event of req.provider.stream({
      model: req.provider.model,
      system: req.system,
      messages,
      tools: [...req.tools],
      maxTokens: req.maxTokens,
      signal: req.signal,
    })) {
      if (event.type === 'message') answer = event.message;
      else if (event.type === 'usage') req.onUsage?.(event.usage);
    }
    if (req.signal.aborted) return { ok: false, error: 'cancelled' };
    if (!answer) return { ok: false, error: `${req.provider.name}: the model stream ended without a message` };
    const text = textOf(answer).trim();
    return { ok: true, text: text === '' ? '(the model gave no text answer)' : text };
  } catch (error) {
    return { ok: false, error: req.signal.aborted ? 'cancelled' : errorMessage(error) };
  }
}
