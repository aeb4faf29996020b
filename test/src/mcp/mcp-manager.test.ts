import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpConfig, McpServerEntry } from '../../../src/mcp/mcp-config.js';
import { createMcpManager, type McpManager } from '../../../src/mcp/mcp-manager.js';
import { mcpTimeouts } from '../../../src/mcp/mcp-timeouts.js';
import type { AnyTool } from '../../../src/tools/tool.js';
import { waitFor } from '../../helpers/wait-for.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/mcp');
const stdioServer = path.join(fixtures, 'stdio-server.mjs');

function stdio(name: string, args: string[] = [], scope: McpServerEntry['scope'] = 'user'): McpServerEntry {
  return { name, scope, source: 'test', config: { transport: 'stdio', command: process.execPath, args: [stdioServer, '--name', name, ...args], env: {} } };
}

const open: McpManager[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((m) => m.close()));
});

function manager(servers: McpServerEntry[], env: NodeJS.ProcessEnv = {}, extra: { trusted?: boolean } = {}) {
  const tools: AnyTool[] = [];
  const config: McpConfig = { servers, problems: [] };
  const m = createMcpManager({ config, layers: [], trusted: extra.trusted ?? false, env: { ...process.env, ...env }, cwd: fixtures, tools, restartDelaysMs: [50] });
  open.push(m);
  return { m, tools };
}

const call = (tools: AnyTool[], name: string, input: unknown, signal = new AbortController().signal) => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(', ')}`);
  return tool.call(tool.inputSchema.parse(input), { cwd: fixtures, signal });
};

describe('MCP manager against a real stdio server', () => {
  it('adds the server tools to the list in place once connected, and calls them', async () => {
    const { m, tools } = manager([stdio('alpha')]);
    m.start();
    expect(tools).toEqual([]);
    await m.ready();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['mcp__alpha__echo', 'mcp__alpha__add', 'mcp_list_resources', 'mcp_read_resource']));
    expect(await call(tools, 'mcp__alpha__echo', { text: 'hi' })).toEqual({ content: 'echo from alpha: hi' });
    expect(m.statuses()[0]).toMatchObject({ state: 'connected' });
  });

  it('skips a tool with an invalid schema and reports it, keeping the others', async () => {
    const { m, tools } = manager([stdio('alpha')]);
    m.start();
    await m.ready();
    expect(tools.map((t) => t.name)).not.toContain('mcp__alpha__broken');
    expect(m.statuses()[0]!.skipped.join('\n')).toMatch(/"broken": invalid input schema.*tool skipped/);
  });

  it('checks input against the server schema and makes read-only tools parallel-safe', async () => {
    const { m, tools } = manager([stdio('alpha')]);
    m.start();
    await m.ready();
    const echo = tools.find((t) => t.name === 'mcp__alpha__echo')!;
    const add = tools.find((t) => t.name === 'mcp__alpha__add')!;
    expect(echo.inputSchema.safeParse({ text: 3 }).success).toBe(false);
    expect(echo.inputSchema.safeParse({ text: 'x', extra: 1 }).success).toBe(false);
    expect(echo.effects?.({})).toBe('world');
    expect(echo.isConcurrencySafe?.({})).toBe(false);
    expect(add.effects?.({})).toBe('world'); // asked like any MCP tool; the hint only allows parallel runs
    expect(add.isConcurrencySafe?.({})).toBe(true);
  });

  it('describes images and embedded resources instead of raw JSON', async () => {
    const { m, tools } = manager([stdio('alpha')]);
    m.start();
    await m.ready();
    const result = await call(tools, 'mcp__alpha__picture', {});
    expect(result.content).toBe('a picture follows\n[image: image/png, 70 bytes]\n[resource memo://note (text/plain)]\nembedded note text');
  });

  it('lists and reads resources', async () => {
    const { m, tools } = manager([stdio('alpha')]);
    m.start();
    await m.ready();
    expect((await call(tools, 'mcp_list_resources', {})).content).toMatch(/alpha: memo:\/\/greeting {2}greeting \(text\/plain\)/);
    expect((await call(tools, 'mcp_read_resource', { server: 'alpha', uri: 'memo://greeting' })).content).toMatch(/hello from the alpha resource/);
    const missing = await call(tools, 'mcp_read_resource', { server: 'alpha', uri: 'memo://nope' });
    expect(missing).toMatchObject({ isError: true });
  });

  it('a server that dies mid-call gives an error result with its stderr, then restarts', async () => {
    const { m, tools } = manager([stdio('alpha')]);
    m.start();
    await m.ready();
    const result = await call(tools, 'mcp__alpha__crash', {});
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/exited during the call/);
    expect(result.content).toMatch(/about to crash on purpose/);
    await waitFor(() => m.statuses()[0]!.state === 'connected', { timeout: 10_000 });
    expect(await call(tools, 'mcp__alpha__echo', { text: 'back' })).toEqual({ content: 'echo from alpha: back' });
  });

  it('a call that never answers ends with an error after MCP_TOOL_TIMEOUT', async () => {
    const { m, tools } = manager([stdio('alpha')], { MCP_TOOL_TIMEOUT: '300' });
    m.start();
    await m.ready();
    const result = await call(tools, 'mcp__alpha__hang', {});
    expect(result).toMatchObject({ isError: true });
    expect(result.content).toMatch(/no answer within 0.3 s/);
  });

  it('MCP_TIMEOUT and MCP_TOOL_TIMEOUT beyond what a timer holds are cut to a day, said once: the server still connects and answers', async () => {
    const env = { MCP_TIMEOUT: '3000000000', MCP_TOOL_TIMEOUT: '3000000000' };
    const { m, tools } = manager([stdio('alpha')], env);
    m.start();
    await m.ready();
    expect(m.statuses()[0]).toMatchObject({ state: 'connected' });
    expect(await call(tools, 'mcp__alpha__echo', { text: 'hi' })).toEqual({ content: 'echo from alpha: hi' });
    expect(mcpTimeouts(env).problems).toEqual([
      'MCP_TIMEOUT=3000000000 ms is longer than cairn waits for an MCP server; using 86400000 ms (24 hours)',
      'MCP_TOOL_TIMEOUT=3000000000 ms is longer than cairn waits for an MCP server; using 86400000 ms (24 hours)',
    ]);
  });

  it('a command that does not exist fails that server only, with the reason', async () => {
    const missing: McpServerEntry = { name: 'ghost', scope: 'user', source: 'test', config: { transport: 'stdio', command: 'cairn-no-such-command-xyz', args: [], env: {} } };
    const { m, tools } = manager([missing, stdio('alpha')]);
    m.start();
    await m.ready();
    const [ghost, alpha] = m.statuses();
    expect(ghost).toMatchObject({ state: 'failed' });
    expect(ghost!.error).toMatch(/ENOENT/);
    expect(alpha).toMatchObject({ state: 'connected' });
    expect(tools.some((t) => t.name.startsWith('mcp__ghost__'))).toBe(false);
  });

  it('a server that fails at start is reported with its stderr', async () => {
    const { m } = manager([stdio('bad', ['--fail-at-start'])]);
    m.start();
    await m.ready();
    expect(m.statuses()[0]!.error).toMatch(/cannot open the database at \/nowhere/);
  });

  it('a server that never finishes the handshake fails after MCP_TIMEOUT', async () => {
    const { m } = manager([stdio('slow', ['--slow-start', '60000'])], { MCP_TIMEOUT: '300' });
    m.start();
    await m.ready();
    expect(m.statuses()[0]).toMatchObject({ state: 'failed' });
    expect(m.statuses()[0]!.error).toMatch(/timed out/i);
  });

  it('a project server waits for approval; /mcp enable starts it, disable removes its tools', async () => {
    const { m, tools } = manager([stdio('proj', [], 'project')]);
    m.start();
    await m.ready();
    expect(m.statuses()[0]).toMatchObject({ state: 'pending' });
    expect(tools).toEqual([]);
    expect(await m.enable('proj')).toMatch(/connected/);
    expect(tools.map((t) => t.name)).toContain('mcp__proj__echo');
    await m.disable('proj');
    expect(tools).toEqual([]);
  });

  it('fills a prompt from its arguments', async () => {
    const { m } = manager([stdio('alpha')]);
    m.start();
    await m.ready();
    expect(await m.prompt('alpha', 'review', 'notes.md')).toBe('read notes.md');
    await expect(m.prompt('alpha', 'review', '')).rejects.toThrow(/missing file/);
  });
});
