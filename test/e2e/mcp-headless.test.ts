import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { repoRoot, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { startHttpFixture, type HttpFixture } from '../fixtures/mcp/http-server.mjs';

// MCP end to end: the built cairn, the offline model, real servers (a stdio child process, a
// streamable-HTTP server on loopback, the published reference server).
const fixture = path.join(repoRoot, 'test/fixtures/mcp/stdio-server.mjs');
const everything = path.join(repoRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const stdio = (name: string, ...args: string[]) => ({ command: process.execPath, args: [fixture, '--name', name, ...args] });

let http: HttpFixture;
beforeAll(async () => {
  http = await startHttpFixture('remote');
});
afterAll(async () => {
  await http.close();
});

async function run(prompt: string, servers: Record<string, unknown>, args: string[] = [], env: Record<string, string> = {}) {
  const ws = await tempWorkspace();
  await fs.writeFile(path.join(ws.home, 'mcp.json'), JSON.stringify({ mcpServers: servers }));
  const result = await runCairn(['-p', prompt, '--output-format', 'stream-json', ...args], { cwd: ws.dir, home: ws.home, env: { MCP_TIMEOUT: '10000', ...env }, timeoutMs: 30_000 });
  expect(result.code, result.stderr).toBe(0);
  const results = ofType(result.events, 'tool_result');
  return { ...result, results, denied: ofType(result.events, 'permission_denied'), terminal: ofType(result.events, 'terminal')[0] };
}

describe('MCP through the offline model (headless)', () => {
  it('a tool call on a stdio server allowed by a server rule', async () => {
    const r = await run('use mcp tool mcp__alpha__echo {"text": "hello"}', { alpha: stdio('alpha') }, ['--allowed-tools', 'mcp__alpha']);
    expect(r.results[0]).toMatchObject({ name: 'mcp__alpha__echo', content: 'echo from alpha: hello', is_error: false });
    expect(ofType(r.events, 'session_start')[0]!.tools).toContain('mcp__alpha__echo');
  });

  it('without a rule the call needs approval, which a headless run cannot give: denied, the turn goes on', async () => {
    const r = await run('use mcp tool mcp__alpha__echo {"text": "hello"}', { alpha: stdio('alpha') });
    expect(r.denied.map((d) => d.name)).toEqual(['mcp__alpha__echo']);
    expect(r.terminal?.reason).toBe('completed');
  });

  it('a deny rule on the tool wins over an allow rule on its server', async () => {
    const r = await run('use mcp tool mcp__alpha__echo {"text": "x"}', { alpha: stdio('alpha') }, ['--allowed-tools', 'mcp__alpha', '--disallowed-tools', 'mcp__alpha__echo']);
    expect(r.denied.map((d) => d.name)).toEqual(['mcp__alpha__echo']);
    expect(r.results[0]!.content).toMatch(/denied/i);
  });

  it('a resource read (no approval needed)', async () => {
    const r = await run('use mcp tool mcp_read_resource {"server": "alpha", "uri": "memo://greeting"}', { alpha: stdio('alpha') });
    expect(r.results[0]).toMatchObject({ name: 'mcp_read_resource', is_error: false });
    expect(r.results[0]!.content).toMatch(/hello from the alpha resource/);
  });

  it('a server that dies mid-call: an error result naming its stderr, and the turn completes', async () => {
    const r = await run('use mcp tool mcp__alpha__crash {}', { alpha: stdio('alpha') }, ['--allowed-tools', 'mcp__alpha']);
    expect(r.results[0]).toMatchObject({ name: 'mcp__alpha__crash', is_error: true });
    expect(r.results[0]!.content).toMatch(/exited during the call[\s\S]*about to crash on purpose/);
    expect(r.terminal?.reason).toBe('completed');
  });

  it('a server that never answers: an error result after MCP_TOOL_TIMEOUT', async () => {
    const r = await run('use mcp tool mcp__alpha__hang {}', { alpha: stdio('alpha') }, ['--allowed-tools', 'mcp__alpha'], { MCP_TOOL_TIMEOUT: '500' });
    expect(r.results[0]).toMatchObject({ is_error: true });
    expect(r.results[0]!.content).toMatch(/no answer within 0.5 s/);
    expect(r.terminal?.reason).toBe('completed');
  });

  it('a tool with an invalid schema is skipped and reported; the others work', async () => {
    const r = await run('use mcp tool mcp__alpha__broken {}', { alpha: stdio('alpha') }, ['--allowed-tools', 'mcp__alpha']);
    expect(r.stderr).toMatch(/MCP server "alpha": "broken": invalid input schema.*tool skipped/);
    expect(ofType(r.events, 'session_start')[0]!.tools).not.toContain('mcp__alpha__broken');
    expect(r.results[0]).toMatchObject({ is_error: true, content: expect.stringMatching(/Unknown tool "mcp__alpha__broken"/) });
  });

  it('a server whose command does not exist is reported; the other server still works', async () => {
    const r = await run('use mcp tool mcp__alpha__echo {"text": "still here"}', { ghost: { command: 'cairn-no-such-server-xyz' }, alpha: stdio('alpha') }, ['--allowed-tools', 'mcp__alpha']);
    expect(r.stderr).toMatch(/MCP server "ghost" failed: could not start: .*ENOENT/);
    expect(r.results[0]!.content).toBe('echo from alpha: still here');
  });

  it('a streamable-HTTP server on loopback, with ${VAR} expanded in its headers', async () => {
    const r = await run(
      'use mcp tool mcp__remote__echo {"text": "over http"}',
      { remote: { type: 'http', url: http.url, headers: { Authorization: 'Bearer ${MCP_TEST_TOKEN}' } } },
      ['--allowed-tools', 'mcp__remote__echo'],
      { MCP_TEST_TOKEN: 'tok-123' },
    );
    expect(r.results[0]).toMatchObject({ content: 'echo from remote: over http', is_error: false });
    expect(http.headersSeen.some((h) => h['authorization'] === 'Bearer tok-123')).toBe(true);
  });

  it('the published reference server (@modelcontextprotocol/server-everything)', async () => {
    const r = await run('use mcp tool mcp__everything__echo {"message": "ping"}', { everything: { command: process.execPath, args: [everything, 'stdio'] } }, ['--allowed-tools', 'mcp__everything__echo']);
    expect(r.results[0]).toMatchObject({ is_error: false, content: expect.stringMatching(/ping/) });
  });

  it("a project's .mcp.json server does not start in an untrusted folder until the user's settings approve it", async () => {
    const ws = await tempWorkspace({ '.mcp.json': JSON.stringify({ mcpServers: { proj: stdio('proj') } }) });
    const args = ['-p', 'use mcp tool mcp__proj__echo {"text": "p"}', '--output-format', 'stream-json', '--allowed-tools', 'mcp__proj'];
    const before = await runCairn(args, { cwd: ws.dir, home: ws.home, env: { CLAUDE_CONFIG_DIR: path.join(ws.home, 'claude') } });
    expect(before.stderr).toMatch(/MCP server "proj" not started: needs approval/);
    expect(ofType(before.events, 'tool_result')[0]!.content).toMatch(/Unknown tool/);
    // The project approving itself counts for nothing.
    await fs.mkdir(path.join(ws.dir, '.claude'), { recursive: true });
    await fs.writeFile(path.join(ws.dir, '.claude', 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
    const self = await runCairn(args, { cwd: ws.dir, home: ws.home, env: { CLAUDE_CONFIG_DIR: path.join(ws.home, 'claude') } });
    expect(ofType(self.events, 'tool_result')[0]!.content).toMatch(/Unknown tool/);
    await fs.writeFile(path.join(ws.home, 'settings.json'), JSON.stringify({ enabledMcpjsonServers: ['proj'] }));
    const after = await runCairn(args, { cwd: ws.dir, home: ws.home, env: { CLAUDE_CONFIG_DIR: path.join(ws.home, 'claude') } });
    expect(ofType(after.events, 'tool_result')[0]).toMatchObject({ content: 'echo from proj: p', is_error: false });
  });

  it('a server added to .mcp.json after the folder was trusted does not start headless: stderr names it and how to approve it; the repository cannot approve it itself', async () => {
    const ws = await tempWorkspace({ '.mcp.json': JSON.stringify({ mcpServers: { added: stdio('added') } }) });
    await fs.writeFile(path.join(ws.home, 'trusted-folders.json'), JSON.stringify({ folders: { [ws.dir]: { trustedAt: '2026-01-01T00:00:00.000Z' } } }));
    const args = ['-p', 'use mcp tool mcp__added__echo {"text": "p"}', '--output-format', 'stream-json', '--allowed-tools', 'mcp__added'];
    const env = { CLAUDE_CONFIG_DIR: path.join(ws.home, 'claude'), MCP_TIMEOUT: '10000' };
    const run1 = await runCairn(args, { cwd: ws.dir, home: ws.home, env, timeoutMs: 30_000 });
    expect(run1.code, run1.stderr).toBe(0);
    expect(run1.stderr).toMatch(/MCP server "added" not started: needs approval: a new project server \(.*\.mcp\.json\); start cairn here without -p to be asked, or add "added" to enabledMcpjsonServers in your user settings/);
    expect(ofType(run1.events, 'tool_result')[0]!.content).toMatch(/Unknown tool/);

    // The repository's own settings (committed or local), however trusted, approve nothing.
    await fs.mkdir(path.join(ws.dir, '.claude'), { recursive: true });
    await fs.writeFile(path.join(ws.dir, '.claude', 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true, enabledMcpjsonServers: ['added'] }));
    await fs.writeFile(path.join(ws.dir, '.claude', 'settings.local.json'), JSON.stringify({ enableAllProjectMcpServers: true, enabledMcpjsonServers: ['added'] }));
    const self = await runCairn(args, { cwd: ws.dir, home: ws.home, env, timeoutMs: 30_000 });
    expect(self.stderr).toMatch(/MCP server "added" not started: needs approval/);
    expect(ofType(self.events, 'tool_result')[0]!.content).toMatch(/Unknown tool/);

    // The user's own settings do: enableAllProjectMcpServers starts it...
    await fs.writeFile(path.join(ws.home, 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
    const all = await runCairn(args, { cwd: ws.dir, home: ws.home, env, timeoutMs: 30_000 });
    expect(ofType(all.events, 'tool_result')[0]).toMatchObject({ content: 'echo from added: p', is_error: false });
    // ...and disabledMcpjsonServers, in any file, wins over it.
    await fs.writeFile(path.join(ws.dir, '.claude', 'settings.local.json'), JSON.stringify({ disabledMcpjsonServers: ['added'] }));
    const off = await runCairn(args, { cwd: ws.dir, home: ws.home, env, timeoutMs: 30_000 });
    expect(ofType(off.events, 'tool_result')[0]!.content).toMatch(/Unknown tool/);
    expect(off.stderr).not.toMatch(/MCP server "added" not started/);
  });
});
