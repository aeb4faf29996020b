import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpManager, type McpManager } from '../../../src/mcp/mcp-manager.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { AnyTool } from '../../../src/tools/tool.js';

// MCP tools go through the same permission chain as every tool: world effects are asked, rules
// naming the server or the tool decide them, deny wins, and a server named to ride on another's rule is refused.
const fixtures = path.resolve(import.meta.dirname, '../../fixtures/mcp');
let manager: McpManager;
const tools: AnyTool[] = [];
let workspace: string;

beforeAll(async () => {
  workspace = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-mcp-perm-')));
  manager = createMcpManager({
    config: { servers: [{ name: 'alpha', scope: 'user', source: 'test', config: { transport: 'stdio', command: process.execPath, args: [path.join(fixtures, 'stdio-server.mjs'), '--name', 'alpha'], env: {} } }], problems: [] },
    layers: [],
    trusted: false,
    env: process.env,
    cwd: workspace,
    tools,
  });
  manager.start();
  await manager.ready();
});
afterAll(async () => {
  await manager.close();
});

async function decide(name: string, rules: { allow?: string[]; ask?: string[]; deny?: string[] }, mode: 'default' | 'acceptEdits' | 'bypassPermissions' = 'default') {
  const checker = createPermissionChecker({ workspace, mode, cairnHome: workspace, rules: { allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] } });
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no ${name}`);
  return (await checker.check(tool, name.endsWith('echo') ? { text: 'x' } : {})).behavior;
}

describe('MCP tools in the permission chain', () => {
  it('a tool that changes the world is asked by default, also in acceptEdits', async () => {
    expect(await decide('mcp__alpha__echo', {})).toBe('ask');
    expect(await decide('mcp__alpha__echo', {}, 'acceptEdits')).toBe('ask');
  });

  it('a tool the server calls read-only (readOnlyHint) is still asked: the hint is the server\'s word, not the user\'s', async () => {
    expect(await decide('mcp__alpha__add', {})).toBe('ask');
    expect(await decide('mcp__alpha__add', { allow: ['mcp__alpha__add'] })).toBe('allow');
  });

  it('allow rules: the whole server, the server with *, one tool; another tool is still asked', async () => {
    expect(await decide('mcp__alpha__echo', { allow: ['mcp__alpha'] })).toBe('allow');
    expect(await decide('mcp__alpha__echo', { allow: ['mcp__alpha__*'] })).toBe('allow');
    expect(await decide('mcp__alpha__echo', { allow: ['mcp__alpha__echo'] })).toBe('allow');
    expect(await decide('mcp__alpha__picture', { allow: ['mcp__alpha__echo'] })).toBe('ask');
    expect(await decide('mcp__alpha__echo', { allow: ['mcp__alph'] })).toBe('ask');
  });

  it('deny rules block, over an allow and in bypassPermissions, read-only tools too', async () => {
    expect(await decide('mcp__alpha__echo', { allow: ['mcp__alpha'], deny: ['mcp__alpha__echo'] })).toBe('deny');
    expect(await decide('mcp__alpha__echo', { deny: ['mcp__alpha'] }, 'bypassPermissions')).toBe('deny');
    expect(await decide('mcp__alpha__add', { deny: ['mcp__alpha__*'] })).toBe('deny');
  });
});
