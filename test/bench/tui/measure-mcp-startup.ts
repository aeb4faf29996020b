// Issue 20: the first interactive frame with three slow-starting MCP servers configured against
// none. Servers start in the background, so the frame must not wait for them; the time until the
// status bar counts all three connected is reported beside it.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSandbox, PROMPT_VISIBLE, startCairn } from './cairn-pty.js';

/** dist/test/bench/tui/ -> the repository's test/fixtures/mcp/stdio-server.mjs (the SDK resolves from the repo). */
const STDIO_SERVER = fileURLToPath(new URL('../../../../test/fixtures/mcp/stdio-server.mjs', import.meta.url));

export interface McpFrameTimes extends Record<string, number> {
  /** Spawn to the prompt box, no MCP servers configured. */
  noneMs: number;
  /** Spawn to the prompt box, three servers that each wait `slowStartMs` before their handshake. */
  threeMs: number;
  /** Spawn to "MCP 3 connected" in the status bar, same three servers. */
  connectedMs: number;
}

async function firstFrame(servers: number, slowStartMs: number): Promise<{ frameMs: number; connectedMs: number }> {
  const sandbox = createSandbox();
  try {
    if (servers > 0) {
      const entries = Object.fromEntries(
        Array.from({ length: servers }, (_, i) => [`slow${i + 1}`, { command: process.execPath, args: [STDIO_SERVER, '--name', `slow${i + 1}`, '--slow-start', String(slowStartMs)] }]),
      );
      writeFileSync(path.join(sandbox.home, 'mcp.json'), JSON.stringify({ mcpServers: entries }));
    }
    const app = startCairn(sandbox, [], true, { MCP_TIMEOUT: '60000' });
    try {
      const frameAt = await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box');
      const connectedAt = servers > 0 ? await app.waitForScreen((s) => s.includes(`MCP ${servers} connected`), 'every server connected') : frameAt;
      return { frameMs: frameAt - app.startedAt, connectedMs: connectedAt - app.startedAt };
    } finally {
      await app.stop();
    }
  } finally {
    sandbox.dispose();
  }
}

/** One run of each; the caller alternates which goes first, so drift and warm caches hit both alike. */
export async function measureMcpFirstFrame(slowStartMs: number, noneFirst: boolean): Promise<McpFrameTimes> {
  const none = noneFirst ? await firstFrame(0, slowStartMs) : undefined;
  const three = await firstFrame(3, slowStartMs);
  const noneAfter = none ?? (await firstFrame(0, slowStartMs));
  return { noneMs: noneAfter.frameMs, threeMs: three.frameMs, connectedMs: three.connectedMs };
}
