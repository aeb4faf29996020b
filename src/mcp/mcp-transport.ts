// The SDK transport for one configuration; a stdio server's stderr goes to a capped log, whose tail
// explains a crash.
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpTransportConfig } from './mcp-config.js';

/** Keeps the last `cap` characters written to it. */
export class CappedLog {
  private text = '';
  constructor(private readonly cap = 16_384) {}
  append(chunk: string): void {
    this.text = (this.text + chunk).slice(-this.cap);
  }
  /** The last few lines, for a message. */
  tail(lines = 5): string {
    return this.text.trimEnd().split('\n').slice(-lines).join('\n');
  }
  get all(): string {
    return this.text;
  }
}

export function createTransport(config: McpTransportConfig, env: NodeJS.ProcessEnv, cwd: string, log: CappedLog): Transport {
  if (config.transport === 'stdio') {
    const inherited = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
    const transport = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...inherited, ...config.env },
      cwd: config.cwd ?? cwd,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer | string) => log.append(chunk.toString()));
    return transport;
  }
  const requestInit: RequestInit = { headers: config.headers };
  const url = new URL(config.url);
  return config.transport === 'sse' ? new SSEClientTransport(url, { requestInit }) : new StreamableHTTPClientTransport(url, { requestInit });
}
