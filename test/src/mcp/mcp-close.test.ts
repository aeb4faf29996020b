import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { closeClient } from '../../../src/mcp/mcp-close.js';

const stdioServer = path.resolve(import.meta.dirname, '../../fixtures/mcp/stdio-server.mjs');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function connect(args: string[]): Promise<{ client: Client; transport: StdioClientTransport; pid: number }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [stdioServer, '--name', 'closing', ...args], stderr: 'pipe' });
  const client = new Client({ name: 'test', version: '0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('no child process');
  return { client, transport, pid };
}

describe('closing a stdio MCP server', () => {
  it('a server that stays up after its stdin ends is signalled after the grace, well before the SDK\'s own 2 s wait', async () => {
    const { client, transport, pid } = await connect(['--linger']);
    const started = Date.now();
    await closeClient(client, transport, { termAfterMs: 50, killAfterMs: 500 });
    expect(alive(pid)).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a server that exits when its stdin ends is closed too', async () => {
    const { client, transport, pid } = await connect([]);
    await closeClient(client, transport);
    expect(alive(pid)).toBe(false);
  });
});
