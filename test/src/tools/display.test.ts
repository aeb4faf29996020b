import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentEventSchema } from '../../../src/events.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { parseToolDisplay, ToolDisplaySchema } from '../../../src/tools/display.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createGlobTool } from '../../../src/tools/glob.js';
import { createGrepTool } from '../../../src/tools/grep.js';
import { createListDirTool } from '../../../src/tools/list-dir.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import type { AnyTool, ToolContext } from '../../../src/tools/tool.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';

let dir: string;
let ctx: ToolContext;

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-display-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
  await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\nbeta\n');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const calls: [AnyTool, Record<string, unknown>][] = [
  [createReadFileTool(), { path: 'a.txt' }],
  [createEditFileTool(), { path: 'a.txt', old_string: 'beta', new_string: 'gamma' }],
  [createWriteFileTool(), { path: 'b.txt', content: 'one\n' }],
  [createListDirTool(), { path: '.' }],
  [createGlobTool(), { pattern: '*.txt' }],
  [createGrepTool(), { pattern: 'alpha' }],
  [createBashTool(), { command: 'echo hi' }],
];

describe('tool displays', () => {
  it.each(calls.map(([tool, input]) => [tool.name, tool, input] as const))('%s: what the tool returns is what a session file reads back', async (name, tool, input) => {
    const r = await tool.call(tool.inputSchema.parse(input), ctx);
    expect(r.isError).toBeFalsy();
    expect(r.display?.kind).toBe(name);
    const recorded: unknown = JSON.parse(JSON.stringify(r.display));
    expect(ToolDisplaySchema.parse(recorded)).toEqual(recorded);
  });

  it('a display recorded before displays had a kind takes its tool name as kind', () => {
    expect(parseToolDisplay('read_file', { path: 'a.txt', startLine: 1, endLine: 2, totalLines: 2 })).toEqual({ kind: 'read_file', path: 'a.txt', startLine: 1, endLine: 2, totalLines: 2 });
    expect(parseToolDisplay('bash', { command: 'sleep 9', background: true, shellId: 'bash_1' })).toMatchObject({ kind: 'bash', shellId: 'bash_1' });
  });

  it('a display that fits no shape is dropped, a well-formed one of another kind is not renamed', () => {
    expect(parseToolDisplay('read_file', {})).toBeUndefined();
    expect(parseToolDisplay('read_file', { startLine: 'one' })).toBeUndefined();
    expect(parseToolDisplay('read_file', 'a diff')).toBeUndefined();
    expect(parseToolDisplay('read_file', { kind: 'no_such_tool', path: 'a.txt' })).toBeUndefined();
    expect(parseToolDisplay('mcp_tool', { kind: 'cron_list', count: 2 })).toEqual({ kind: 'cron_list', count: 2 });
  });
});

describe('tool_result events read back', () => {
  const result = { type: 'tool_result', id: 't1', name: 'read_file', content: '1\talpha', is_error: false, duration_ms: 4 };

  it('keep the result when its display does not fit: only the display goes', () => {
    const parsed = AgentEventSchema.safeParse({ ...result, display: { startLine: 'one' } });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toEqual(result);
    expect(parsed.data).not.toHaveProperty('display');
  });

  it('keep a display that fits, typed', () => {
    const display = { kind: 'read_file', path: 'a.txt', startLine: 1, endLine: 1, totalLines: 2 };
    expect(AgentEventSchema.parse({ ...result, display })).toEqual({ ...result, display });
    expect(AgentEventSchema.parse(result)).toEqual(result);
  });

  it('inside a subagent envelope too', () => {
    const envelope = { type: 'subagent', parent_id: 'a1', agent_type: 'explore', depth: 1, event: { ...result, display: 42 } };
    expect(AgentEventSchema.parse(envelope)).toEqual({ ...envelope, event: result });
  });
});
