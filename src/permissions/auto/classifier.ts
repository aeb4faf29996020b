// Auto mode's classifier: one model call per action the sandbox cannot contain. It never throws:
// an error, a timeout or an answer that is not the JSON asked for comes back as `unavailable`, and
// the loop then asks the user (or, with no one to ask, denies).
import { userText, textOf } from '../../messages.js';
import type { ModelProvider } from '../../providers/provider.js';
import type { Usage } from '../../usage.js';
import { errorMessage } from '../../util/error-message.js';
import { CLASSIFIER_SYSTEM_PROMPT, classifierRequest, parseClassifierAnswer, type ProposedAction } from './classifier-prompt.js';

export type { ProposedAction };

export type ClassifierVerdict =
  | { decision: 'allow' | 'block'; reason: string }
  /** No verdict: why (an error, a timeout, an answer that could not be read). */
  | { decision: 'unavailable'; reason: string };

/** A verdict and what the call cost (when the provider reported it). */
export type ClassifierOutcome = ClassifierVerdict & { usage?: Usage; model?: string };

export interface ActionClassifier {
  classify(action: ProposedAction, signal: AbortSignal): Promise<ClassifierOutcome>;
}

export const CLASSIFIER_TIMEOUT_MS = 60_000;
const CLASSIFIER_MAX_TOKENS = 400;

export interface ActionClassifierOptions {
  /** The model that judges: the session's, or `autoMode.model`'s. Undefined (offline): there is no classifier. */
  provider: () => ModelProvider | undefined;
  /** What the user typed this session, oldest first: the only statement of intent the classifier sees. */
  userPrompts: () => readonly string[];
  timeoutMs?: number;
  /** The spending cap's check: a reason means the call is not made. */
  refuseModelCall?: (next: { model: string; inputTokens: number }) => string | undefined;
}

export function createActionClassifier(opts: ActionClassifierOptions): ActionClassifier {
  return {
    async classify(action, signal) {
      const provider = opts.provider();
      if (!provider || provider.offline === true) return { decision: 'unavailable', reason: 'no model is configured for the classifier' };
      const request = classifierRequest(opts.userPrompts(), action);
      const refused = opts.refuseModelCall?.({ model: provider.model, inputTokens: Math.ceil((CLASSIFIER_SYSTEM_PROMPT.length + request.length) / 4) });
      if (refused !== undefined) return { decision: 'unavailable', reason: refused };
      const timeoutMs = opts.timeoutMs ?? CLASSIFIER_TIMEOUT_MS;
      const timeout = AbortSignal.timeout(timeoutMs);
      let usage: Usage | undefined;
      let answer: string | undefined;
      try {
        for await (const event of provider.stream({
          model: provider.model,
          system: CLASSIFIER_SYSTEM_PROMPT,
          messages: [userText(request)],
          tools: [],
          maxTokens: CLASSIFIER_MAX_TOKENS,
          signal: AbortSignal.any([signal, timeout]),
        })) {
          if (event.type === 'usage') usage = event.usage;
          else if (event.type === 'message') answer = textOf(event.message);
        }
      } catch (error) {
        const why = timeout.aborted && !signal.aborted ? `the classifier did not answer within ${Math.round(timeoutMs / 1000)} s` : `the classifier call failed: ${errorMessage(error)}`;
        return { decision: 'unavailable', reason: why, ...(usage ? { usage, model: provider.model } : {}) };
      }
      const cost = usage ? { usage, model: provider.model } : {};
      const verdict = answer === undefined ? undefined : parseClassifierAnswer(answer);
      if (!verdict) return { decision: 'unavailable', reason: 'the classifier\'s answer was not the one line of JSON asked for', ...cost };
      return { ...verdict, ...cost };
    },
  };
}
