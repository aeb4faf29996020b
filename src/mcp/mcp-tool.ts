// An MCP server's tool as a cairn tool, `mcp__<server>__<tool>`: the server's JSON Schema is what the
// model sees and what its input is checked against; the call goes through the same permission chain
// as every tool (world effects: asked unless a rule allows it). A server's readOnlyHint is a claim, not a
// guarantee (a remote server decides what it says), so it only lets the call share a parallel batch.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import * as z from 'zod';
import type { AnyTool, ToolResult } from '../tools/tool.js';
import { defineTool } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';

/** A tool as tools/list gives it, before any checking. */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; title?: string };
}

export interface McpToolCaller {
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult>;
}

const validators = new AjvJsonSchemaValidator();

/** `mcp__<server>__<tool>`, with anything the model APIs refuse in a name made `_`. */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${server}__${tool.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

export function mcpToolPrefix(server: string): string {
  return `mcp__${server}__`;
}

/** Reads one entry of tools/list; throws a message saying what is wrong with it. */
export function checkListedTool(raw: unknown): ListedTool {
  if (typeof raw !== 'object' || raw === null) throw new Error('not an object');
  const t = raw as Record<string, unknown>;
  if (typeof t['name'] !== 'string' || t['name'] === '') throw new Error('no "name"');
  const schema = t['inputSchema'];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) throw new Error(`"${t['name']}": no "inputSchema" object`);
  if ((schema as Record<string, unknown>)['type'] !== 'object') throw new Error(`"${t['name']}": "inputSchema" must have "type": "object"`);
  const annotations = typeof t['annotations'] === 'object' && t['annotations'] !== null ? (t['annotations'] as ListedTool['annotations']) : undefined;
  return {
    name: t['name'],
    ...(typeof t['description'] === 'string' ? { description: t['description'] } : {}),
    inputSchema: schema as Record<string, unknown>,
    ...(annotations ? { annotations } : {}),
  };
}

/**
 * The cairn tool for one listed tool. Throws when the schema itself is invalid JSON Schema
 * (the caller skips that tool and reports it).
 */
export function createMcpTool(server: string, listed: ListedTool, caller: McpToolCaller): AnyTool {
  let validate;
  try {
    validate = validators.getValidator<Record<string, unknown>>(listed.inputSchema);
  } catch (err) {
    throw new Error(`"${listed.name}": invalid input schema: ${errorMessage(err)}`, { cause: err });
  }
  const check = validate;
  // The server's schema goes to the model as written (zod's metadata becomes the JSON Schema);
  // ajv checks the input against it before the permission chain sees it.
  const inputSchema = z
    .custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected an object' })
    .superRefine((value, ctx) => {
      const result = check(value);
      if (!result.valid) ctx.addIssue({ code: 'custom', message: result.errorMessage ?? 'does not match the tool\'s input schema' });
    })
    .meta(listed.inputSchema);
  const readOnly = listed.annotations?.readOnlyHint === true;
  return defineTool<Record<string, unknown>>({
    name: mcpToolName(server, listed.name),
    description: `${listed.description ?? listed.annotations?.title ?? listed.name} (MCP server "${server}")`,
    inputSchema,
    kind: 'other',
    effects: () => 'world',
    isConcurrencySafe: () => readOnly,
    call: (input, ctx) => caller.call(listed.name, input, ctx.signal),
  });
}
