import type { AgentEvent } from '../events.js';
import { notice } from '../events.js';
import type { PermissionAsk, PermissionDecision } from '../permissions/types.js';
import { ASK_USER_QUESTION } from '../tools/ask-user-question-schema.js';
import { AbortError } from '../util/abort.js';

export interface PendingAnswersOptions {
  now?: () => number;
  /** An ask starts waiting (before anyone is told it can be answered): the permission_prompt notification hooks. */
  onPrompt(request: PermissionAsk): void;
  /** Notices: an ask answered no (or a question declined) because nobody answered in time. */
  emit(event: AgentEvent): void;
}

/**
 * The approvals and questions of one session that wait for the user: each keyed by its own
 * request_id (tool_use ids repeat across parallel subagents), answered once by respond(), by the
 * turn's abort, or, with a timeout set, answered no when nobody is there.
 */
export class PendingAnswers {
  private readonly pending = new Map<string, { resolve: (d: PermissionDecision) => void; request: PermissionAsk; expiresAt?: number }>();
  /** Told when an ask starts waiting for its answer (a headless client announces questions from here). */
  private readonly waitingListeners = new Set<(request: PermissionAsk) => void>();
  /** How long an ask waits before it is answered no (setTimeout); undefined: for ever. */
  private timeoutMs: number | undefined;

  constructor(private readonly options: PendingAnswersOptions) {}

  /** Waits for the answer to `request`; rejects with AbortError when `signal` aborts first. */
  wait(request: PermissionAsk, signal: AbortSignal): Promise<PermissionDecision> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(new AbortError());
      // One answer, one ask: a second ask under a waiting request_id is refused, never merged with it.
      if (this.pending.has(request.request_id)) return reject(new Error(`ask ${request.request_id} is already waiting for an answer`));
      this.options.onPrompt(request);
      const timeout = this.timeoutMs;
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => {
        clearTimeout(timer);
        this.pending.delete(request.request_id);
        reject(new AbortError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (decision: PermissionDecision): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(request.request_id);
        resolve(decision);
      };
      const now = this.options.now ?? Date.now;
      this.pending.set(request.request_id, { request, resolve: settle, ...(timeout !== undefined ? { expiresAt: now() + timeout } : {}) });
      for (const listener of this.waitingListeners) listener(request);
      if (timeout === undefined) return;
      // Nobody there: the call is answered no rather than holding the turn (and the page) for ever.
      timer = setTimeout(() => {
        const waited = formatSeconds(timeout);
        // The model's question is declined, not "answered no": there was nothing to approve.
        if (request.name === ASK_USER_QUESTION) {
          this.options.emit(notice('warning', `No answer to the model's question within ${waited}: declined. (Questions and approvals wait ${waited}; approvalTimeoutSeconds in config.json sets it.)`));
          return settle({ behavior: 'deny', unanswered: `nobody answered the question within ${waited}, so it was declined; the user may be away` });
        }
        this.options.emit(notice('warning', `No answer to ${request.name} within ${waited}: answered no. (Approvals wait ${waited}; approvalTimeoutSeconds in config.json sets it.)`));
        settle({ behavior: 'deny', unanswered: `nobody answered the permission prompt within ${waited}, so it was answered no; the user may be away: do not retry it now` });
      }, timeout);
      timer.unref();
    });
  }

  /** Answers each later ask no once it has waited this long (ms); undefined waits for ever. */
  setTimeout(ms: number | undefined): void {
    this.timeoutMs = ms !== undefined && ms > 0 ? ms : undefined;
  }

  /** When a waiting request will be answered no by itself (epoch ms), or undefined when it waits for ever. */
  expiresAt(requestId: string): number | undefined {
    return this.pending.get(requestId)?.expiresAt;
  }

  /** Answers a waiting request by its request_id (never its tool_use id). False if none waits. */
  respond(requestId: string, decision: PermissionDecision): boolean {
    const waiting = this.pending.get(requestId);
    if (!waiting) return false;
    waiting.resolve(decision);
    return true;
  }

  requests(): PermissionAsk[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  onWaiting(listener: (request: PermissionAsk) => void): () => void {
    this.waitingListeners.add(listener);
    return () => this.waitingListeners.delete(listener);
  }
}

function formatSeconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 120 && s % 60 === 0 ? `${s / 60} min` : `${s} s`;
}
