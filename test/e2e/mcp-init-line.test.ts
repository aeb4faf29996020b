import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// stream-json's init line lists each MCP server with its status, as Claude Code's does; an HTTP
// server that cannot be reached names its URL and the cause under "fetch failed".
const fixture = path.join(repoRoot, 'test/fixtures/mcp/stdio-server.mjs');

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('MCP servers in a headless run', () => {
  it('the init line names each server and its status; the unreachable one is told once with its URL and cause', async () => {
    const ws = await tempWorkspace();
    const port = await closedPort();
    const config = JSON.stringify({
      mcpServers: {
        echoer: { command: process.execPath, args: [fixture, '--name', 'echoer'] },
        web: { type: 'http', url: `http://127.0.0.1:${port}/mcp?token=secret` },
      },
    });
    const run = await runCairn(['-p', 'hello', '--output-format', 'stream-json', '--mcp-config', config], { cwd: ws.dir, home: ws.home, env: { MCP_TIMEOUT: '10000' }, timeoutMs: 30_000 });
    expect(run.code, run.stderr).toBe(0);
    const init = JSON.parse(run.stdout.split('\n')[0]!) as { type: string; subtype: string; mcp_servers: unknown };
    expect(init).toMatchObject({ type: 'system', subtype: 'init' });
    expect(init.mcp_servers).toEqual([
      { name: 'echoer', status: 'connected' },
      { name: 'web', status: 'failed' },
    ]);
    const said = run.stderr.split('\n').filter((l) => l.includes('"web"'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`MCP server "web" failed: could not reach http://127\\.0\\.0\\.1:${port}/mcp: fetch failed: .*ECONNREFUSED`));
    // The query (which may carry a token) is not repeated.
    expect(run.stderr).not.toContain('secret');
  });

  it('without servers the init line has an empty list', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', 'hello', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect((JSON.parse(run.stdout.split('\n')[0]!) as { mcp_servers: unknown }).mcp_servers).toEqual([]);
  });
});
