import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpConfig } from '../../../src/mcp/mcp-config.js';
import type { McpServerStatus } from '../../../src/mcp/mcp-connection.js';
import { createLazyMcpManager } from '../../../src/mcp/lazy-mcp-manager.js';
import type { McpManagerOptions } from '../../../src/mcp/mcp-manager.js';
import type { AnyTool } from '../../../src/tools/tool.js';

const fixtures = path.resolve(import.meta.dirname, '../../fixtures/mcp');
const config: McpConfig = {
  problems: [],
  servers: [
    { name: 'alpha', scope: 'user', source: 'test', config: { transport: 'stdio', command: process.execPath, args: [path.join(fixtures, 'stdio-server.mjs'), '--name', 'alpha'], env: {} } },
    { name: 'proj', scope: 'project', source: '.mcp.json', config: { transport: 'stdio', command: process.execPath, args: [], env: {} } },
  ],
};

function options(seen: McpServerStatus[][] = []): McpManagerOptions & { tools: AnyTool[] } {
  return { config, layers: [], trusted: false, env: process.env, cwd: fixtures, tools: [], onStatus: (s) => seen.push([...s]) };
}

describe('the MCP manager start-up sees', () => {
  it('loads the client and starts the servers only after the current task; until then /mcp shows what will start', async () => {
    const opts = options();
    let loads = 0;
    const { createMcpManager } = await import('../../../src/mcp/mcp-manager.js');
    const m = createLazyMcpManager(opts, async () => {
      loads += 1;
      return createMcpManager(opts);
    });
    m.start();
    // Still the same task: nothing loaded, no server process.
    expect(loads).toBe(0);
    expect(m.statuses().map((s) => [s.name, s.state])).toEqual([['alpha', 'connecting'], ['proj', 'pending']]);
    expect(m.statuses()[1]?.error).toMatch(/needs approval/);
    await m.ready();
    expect(loads).toBe(1);
    expect(m.statuses()[0]?.state).toBe('connected');
    expect(opts.tools.map((t) => t.name)).toContain('mcp__alpha__echo');
    await m.close();
  });

  it('closed before the client loaded: no server starts', async () => {
    const opts = options();
    const { createMcpManager } = await import('../../../src/mcp/mcp-manager.js');
    const real = createMcpManager(opts);
    const m = createLazyMcpManager(opts, async () => real);
    m.start();
    await m.close();
    await m.ready();
    expect(real.statuses()[0]?.state).toBe('connecting');
    expect(opts.tools).toEqual([]);
  });

  it('a client that cannot load marks every server failed, saying why', async () => {
    const seen: McpServerStatus[][] = [];
    const m = createLazyMcpManager(options(seen), () => Promise.reject(new Error('chunk missing')));
    m.start();
    await m.ready();
    expect(m.statuses().map((s) => s.state)).toEqual(['failed', 'failed']);
    expect(seen.at(-1)?.[0]?.error).toBe('could not load the MCP client: chunk missing');
    await m.close();
  });
});
