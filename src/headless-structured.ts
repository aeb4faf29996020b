// `--json-schema` (Claude Code's structured output): the model is told to end with a JSON value
// matching the schema; the final answer is checked against it, and a mismatch is sent back once
// with what was wrong. What passes is the result's `structured_output`.
import * as z from 'zod';
import { errorMessage } from './util/error-message.js';

/** A schema ready to check answers against; throws naming the flag when cairn cannot use it. */
export function structuredOutputSchema(schema: Record<string, unknown>): z.ZodType {
  try {
    return z.fromJSONSchema(schema);
  } catch (error) {
    throw new Error(`--json-schema: not a JSON Schema cairn can check against: ${errorMessage(error)}`, { cause: error });
  }
}

/** What the system prompt adds so the final answer comes as the JSON value. */
export function structuredOutputInstruction(schema: Record<string, unknown>): string {
  return [
    '# Final answer format',
    'When the task is done, your final answer must be only a JSON value that matches this JSON Schema: no text before or after it, no code fence.',
    JSON.stringify(schema),
  ].join('\n');
}

export type StructuredCheck = { ok: true; value: unknown } | { ok: false; problem: string };

/** The answer as the schema's value, or what is wrong with it. A fence around the JSON is allowed. */
export function checkStructuredOutput(answer: string, schema: z.ZodType): StructuredCheck {
  const text = answer.trim().replace(/^```(?:json)?\s*\n([\s\S]*?)\n?```$/, '$1').trim();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `the answer is not JSON (${errorMessage(error)})` };
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const at = issue && issue.path.length > 0 ? ` at ${issue.path.map(String).join('.')}` : '';
  return { ok: false, problem: `the JSON does not match the schema${at}: ${issue?.message ?? 'invalid'}` };
}

/** The one retry's prompt. */
export function structuredRetryPrompt(problem: string): string {
  return `Your final answer could not be used: ${problem}. Reply again with only the JSON value that matches the required JSON Schema.`;
}
