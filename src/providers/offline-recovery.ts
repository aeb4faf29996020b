// How the offline model answers a stale-read refusal, as a careful model does: it reads the file,
// then makes the refused call again, in one message (the read runs first). Once: a retry refused
// again ends in the summary, failure shown.
import type { Message, ToolResultBlock, ToolUseBlock } from '../messages.js';
import { toolResultText } from '../messages.js';
import type { PlannedCall } from './offline-plan.js';

/** The id prefix of the recovery's tool calls: they are not steps of the plan. */
export const RECOVERY_ID = 'toolu_offre_';
const REFUSED = /^(?:edit_file|write_file) refused: /;

export function isRecovery(message: Message): boolean {
  return message.role === 'assistant' && message.content.some((b) => b.type === 'tool_use' && b.id.startsWith(RECOVERY_ID));
}

function isRefusal(block: ToolResultBlock): boolean {
  return block.is_error === true && REFUSED.test(toolResultText(block));
}

/** The reads and retries for the calls the last results refused; undefined when none was refused. */
export function recoveryCalls(after: readonly Message[]): PlannedCall[] | undefined {
  const last = after.at(-1);
  const previous = after.at(-2);
  if (last?.role !== 'user' || previous?.role !== 'assistant' || isRecovery(previous)) return undefined;
  const refused = new Set(last.content.flatMap((b) => (b.type === 'tool_result' && isRefusal(b) ? [b.tool_use_id] : [])));
  const calls = previous.content.filter((b): b is ToolUseBlock => b.type === 'tool_use' && refused.has(b.id));
  if (calls.length === 0) return undefined;
  const paths = [...new Set(calls.map((c) => String((c.input as Record<string, unknown>)['path'])))];
  return [...paths.map((path) => ({ name: 'read_file', input: { path } })), ...calls.map((c) => ({ name: c.name, input: c.input as Record<string, unknown> }))];
}

/** A refusal the offline model answered with a read and a retry: the summary leaves it out. */
export function wasRecovered(result: ToolResultBlock, messages: readonly Message[]): boolean {
  if (!isRefusal(result)) return false;
  const index = messages.findIndex((m) => m.role === 'user' && m.content.includes(result));
  const next = messages[index + 1];
  return next !== undefined && isRecovery(next);
}
