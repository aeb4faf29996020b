// The offline model's MCP phrase: `use mcp tool <name> <json>` calls any tool by its full name
// (`mcp__<server>__<tool>`, `mcp_read_resource`) with that JSON object as input, so MCP runs offline.
import type { OfflinePlan } from './offline-plan.js';

export function planMcp(text: string): OfflinePlan | undefined {
  const m = /^use mcp tool\s+(\S+)(?:\s+([\s\S]+))?$/i.exec(text);
  if (!m?.[1]) return undefined;
  const name = m[1];
  let input: unknown = {};
  if (m[2] !== undefined) {
    try {
      input = JSON.parse(m[2]);
    } catch {
      // Not JSON: the model says so instead of guessing an input.
      return { kind: 'chat', text: `use mcp tool ${name}: the input is not a JSON object: ${m[2]}` };
    }
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { kind: 'chat', text: `use mcp tool ${name}: the input must be a JSON object` };
  }
  return { kind: 'tools', steps: [[{ name, input: input as Record<string, unknown> }]] };
}
