// Models sometimes emit tool arguments that are not JSON (truncated output, a stray quote).
// The call is kept rather than failing the turn: its input becomes `{ _raw_arguments: text }`,
// the tool's zod validation rejects it, and the model gets an is_error result it can fix.

export const RAW_ARGUMENTS_KEY = '_raw_arguments';

export interface InvalidArguments {
  [RAW_ARGUMENTS_KEY]: string;
}

/** Parses streamed tool arguments; empty means no arguments. Never throws. */
export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    // A tool input is always an object; a bare string or number is as unusable as bad JSON.
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // fall through: kept as raw text below, which is what the model needs to see
  }
  const invalid: InvalidArguments = { [RAW_ARGUMENTS_KEY]: raw };
  return invalid;
}

/**
 * The is_error text for a call whose arguments were not a JSON object, or undefined for a
 * normal input. The loop should check this before zod validation, whose message would not
 * show the model what it sent.
 */
export function invalidToolArguments(input: unknown): string | undefined {
  if (input === null || typeof input !== 'object') return undefined;
  const raw = (input as Record<string, unknown>)[RAW_ARGUMENTS_KEY];
  if (typeof raw !== 'string' || Object.keys(input).length !== 1) return undefined;
  return `The tool arguments were not a valid JSON object, so the tool did not run. You sent: ${raw}\nSend the call again with the arguments as one JSON object matching the tool's schema.`;
}
