import type { ToolUseBlock } from '../messages.js';
import type { AnyTool } from '../tools/tool.js';

export interface ToolBatch {
  parallel: boolean;
  calls: ToolUseBlock[];
}

/** A predicate that throws counts as unsafe: fail closed. */
export function isConcurrencySafe(tool: AnyTool | undefined, input: unknown): boolean {
  if (!tool?.isConcurrencySafe) return false;
  const parsed = tool.inputSchema.safeParse(input);
  if (!parsed.success) return false;
  try {
    return tool.isConcurrencySafe(parsed.data) === true;
  } catch {
    return false;
  }
}

/**
 * Consecutive concurrency-safe calls form one parallel batch; every other call runs alone,
 * so the model's order is kept wherever order could matter.
 */
export function partitionToolCalls(calls: readonly ToolUseBlock[], tools: ReadonlyMap<string, AnyTool>): ToolBatch[] {
  const batches: ToolBatch[] = [];
  for (const call of calls) {
    const safe = isConcurrencySafe(tools.get(call.name), call.input);
    const last = batches[batches.length - 1];
    if (safe && last?.parallel) last.calls.push(call);
    else batches.push({ parallel: safe, calls: [call] });
  }
  // A "parallel" batch of one is just a call.
  return batches.map((b) => (b.calls.length === 1 ? { parallel: false, calls: b.calls } : b));
}
