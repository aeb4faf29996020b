import type { PermissionMode } from '../events.js';
import type { CallView } from '../tools/call-view.js';
import type { QuestionAnswer } from '../tools/ask-user-question-schema.js';

// Asking the user about a tool call: what is asked and what comes back (types.ts has the checker around it).

/** What the user (or whoever holds the ask channel) answered. */
export type PermissionDecision =
  /** mode: the permission mode to carry on in (approving a plan); honoured only for tools that ask the user. */
  /** answers: what the user chose for a question (ask_user_question), one per question asked. */
  | { behavior: 'allow'; remember?: 'session' | 'project'; rules?: string[]; mode?: PermissionMode; answers?: QuestionAnswer[] }
  /** unanswered: nobody answered in time (the approval timeout), so the model is told that rather than "the user declined". */
  | { behavior: 'deny'; message?: string; unanswered?: string };

export interface PermissionAsk {
  /** The tool_use id of the call (or the ask's own kind of id when no call asks). */
  id: string;
  /** This ask's own id (askId()): answers name it, never the tool_use id, which parallel subagents can share. */
  request_id: string;
  name: string;
  input: unknown;
  reason: string;
  suggestions: string[];
  folder?: string[];
  preview?: string;
  agent?: string;
  /** How the call is shown: its title and what the approval is about (see tools/call-view.ts). */
  view?: CallView;
}

/** Injected: the UI's inline prompt, or absent (headless, subagents) which denies. */
export type AskPermission = (request: PermissionAsk, signal: AbortSignal) => Promise<PermissionDecision>;
