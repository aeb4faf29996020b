import * as z from 'zod';
import type { ToolSpec } from '../providers/provider.js';
import type { AnyTool } from '../tools/tool.js';

const cache = new WeakMap<AnyTool, ToolSpec>();

/** The API's JSON Schema is generated from the tool's zod schema, once per tool. */
export function toolSpec(tool: AnyTool): ToolSpec {
  const cached = cache.get(tool);
  if (cached) return cached;
  const schema = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema['$schema'];
  const spec: ToolSpec = { name: tool.name, description: tool.description, input_schema: schema };
  cache.set(tool, spec);
  return spec;
}
