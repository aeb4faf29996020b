import { errorMessage } from '../util/error-message.js';
// Both SDKs put the server's JSON error body on `err.error`, nested differently:
// Anthropic `{type:'error', error:{type, message}}`, OpenAI `{message, type, code}`.

/** The server's own words about a failed call, or the error message when there are none. */
export function apiErrorDetail(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const body = (err as { error?: unknown }).error;
  const message = bodyMessage(body) ?? bodyMessage(isObject(body) ? body['error'] : undefined);
  if (message) return message;
  // SDK messages look like "400 {json}" or "400 status code (no body)"; neither says anything.
  const rest = err.message.replace(/^\d{3}\s+/, '').trim();
  return rest === '{}' || rest === 'status code (no body)' ? '' : rest;
}

/** The innermost cause's message: "fetch failed" hides the useful "connect ECONNREFUSED". */
export function rootCauseMessage(err: unknown): string {
  let current: unknown = err;
  let message = errorMessage(err);
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

function bodyMessage(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const message = body['message'];
  return typeof message === 'string' && message !== '' ? message : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}
