// A `prompt` hook: the hook's prompt (with `$ARGUMENTS` replaced by the input JSON, or the JSON
// appended) is one short model call, as in Claude Code. The model answers {"ok": true} or
// {"ok": false, "reason": "..."}; ok false is the hook's block (exit 2 with the reason), so each
// event reads it by its own rules (PreToolUse denies, Stop keeps the model working).
import type { ModelProvider } from '../providers/provider.js';
import { textOf, userText } from '../messages.js';
import { errorMessage } from '../util/error-message.js';
import type { HookHandler, HookProcessResult } from './hook-types.js';

export const PROMPT_HOOK_SYSTEM =
  'You are a hook in a coding agent: you judge one event against the condition the user wrote. ' +
  'Answer with one line of JSON and nothing else: {"ok": true} when the condition is met (or the event may proceed), ' +
  'or {"ok": false, "reason": "<why, in one sentence>"} when it is not.';

const MAX_TOKENS = 400;

export interface PromptHookOptions {
  handler: Extract<HookHandler, { type: 'prompt' }>;
  /** The input JSON. */
  input: string;
  timeoutMs: number;
  /** The provider for the hook's model (the session's when it names none); undefined: no model to ask. */
  provider: () => ModelProvider | undefined;
  signal?: AbortSignal;
}

export function promptText(prompt: string, input: string): string {
  return prompt.includes('$ARGUMENTS') ? prompt.split('$ARGUMENTS').join(input) : `${prompt}\n\n${input}`;
}

/** The {ok, reason} answer, found as the first JSON object in the reply. */
export function parseOk(reply: string): { ok: boolean; reason?: string } | undefined {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    const value: unknown = JSON.parse(reply.slice(start, end + 1));
    if (typeof value !== 'object' || value === null || typeof (value as { ok?: unknown }).ok !== 'boolean') return undefined;
    const { ok, reason } = value as { ok: boolean; reason?: unknown };
    return { ok, ...(typeof reason === 'string' && reason.trim() !== '' ? { reason } : {}) };
  } catch {
    return undefined;
  }
}

/** Never rejects: no model, a failed call, a timeout or an answer that is not {ok} is a result with `failed`. */
export async function askPromptHook(opts: PromptHookOptions): Promise<HookProcessResult> {
  const none = { exitCode: null, stdout: '', stderr: '', timedOut: false };
  let provider: ModelProvider | undefined;
  try {
    provider = opts.provider();
  } catch (error) {
    return { ...none, failed: `its model${opts.handler.model !== undefined ? ` ${opts.handler.model}` : ''} cannot be used: ${errorMessage(error)}` };
  }
  if (!provider || provider.offline === true) return { ...none, failed: 'a prompt hook needs a model, and none is configured (the offline model cannot judge)' };
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let reply = '';
  try {
    for await (const event of provider.stream({
      model: provider.model,
      system: PROMPT_HOOK_SYSTEM,
      messages: [userText(promptText(opts.handler.prompt, opts.input))],
      tools: [],
      maxTokens: MAX_TOKENS,
      signal,
    })) {
      if (event.type === 'message') reply = textOf(event.message);
    }
  } catch (error) {
    if (timeout.aborted) return { ...none, timedOut: true, failed: `the model did not answer within ${opts.timeoutMs / 1000}s` };
    return { ...none, failed: `the model call failed: ${errorMessage(error)}` };
  }
  const answer = parseOk(reply);
  if (!answer) return { ...none, failed: `the model's answer was not {"ok": true|false, "reason"}: ${reply.trim().slice(0, 200)}` };
  if (answer.ok) return { exitCode: 0, stdout: '', stderr: '', timedOut: false };
  return { exitCode: 2, stdout: '', stderr: answer.reason ?? 'the prompt hook said no', timedOut: false };
}
