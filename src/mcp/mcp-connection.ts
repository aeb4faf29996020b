// One MCP server: connect, list what it offers, call it, and restart it with backoff when it dies.
// Nothing here throws to the caller: failures become the server's state and error, or error results.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import * as z from 'zod';
import type { AnyTool, ToolResult } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';
import type { McpScope, McpServerEntry } from './mcp-config.js';
import { closeClient } from './mcp-close.js';
import { describeToolResult } from './mcp-result.js';
import { mcpStartFailure } from './mcp-start-failure.js';
import { checkListedTool, createMcpTool } from './mcp-tool.js';
import { CappedLog, createTransport } from './mcp-transport.js';

export type McpServerState = 'pending' | 'disabled' | 'connecting' | 'connected' | 'failed';

export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments: { name: string; required: boolean }[];
}

export interface McpServerStatus {
  name: string;
  scope: McpScope;
  source: string;
  transport: 'stdio' | 'http' | 'sse';
  state: McpServerState;
  /** Why it failed, is pending or was disabled; with the tail of its stderr after a crash. */
  error?: string;
  tools: string[];
  /** Tools left out, each with the reason (an invalid schema). */
  skipped: string[];
  prompts: McpPromptInfo[];
  resources: boolean;
}

export interface McpConnectionOptions {
  entry: McpServerEntry;
  env: NodeJS.ProcessEnv;
  cwd: string;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** Waits before each restart after a crash; when used up the server stays failed. */
  restartDelaysMs: readonly number[];
  onChange: () => void;
}

const LooseList = z.looseObject({ nextCursor: z.string().optional() });
const PAGE_LIMIT = 50;

export class McpConnection {
  readonly status: McpServerStatus;
  /** The cairn tools of this server, replaced whole at each (re)connection. */
  tools: AnyTool[] = [];
  readonly stderr = new CappedLog();
  private client: Client | undefined;
  private transport: Transport | undefined;
  private closing = false;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: McpConnectionOptions, initial: { state: McpServerState; error?: string }) {
    const { entry } = options;
    this.status = {
      name: entry.name,
      scope: entry.scope,
      source: entry.source,
      transport: entry.config.transport,
      state: initial.state,
      ...(initial.error !== undefined ? { error: initial.error } : {}),
      tools: [],
      skipped: [],
      prompts: [],
      resources: false,
    };
  }

  get name(): string {
    return this.status.name;
  }

  private set(state: McpServerState, error?: string): void {
    this.status.state = state;
    if (error === undefined) delete this.status.error;
    else this.status.error = error;
    this.options.onChange();
  }

  /** Connects and lists; resolves when connected or failed, never rejects. */
  async start(): Promise<void> {
    clearTimeout(this.restartTimer);
    this.closing = false;
    this.set('connecting');
    const client = new Client({ name: 'cairn', version: '0.1.0' }, { capabilities: {} });
    let transport: Transport | undefined;
    try {
      transport = createTransport(this.options.entry.config, this.options.env, this.options.cwd, this.stderr);
      await client.connect(transport, { timeout: this.options.startupTimeoutMs });
      await this.list(client);
    } catch (err) {
      this.closing = true;
      await closeClient(client, transport).catch(() => undefined);
      this.closing = false;
      this.set('failed', this.withStderr(mcpStartFailure(this.options.entry.config, err)));
      return;
    }
    this.client = client;
    this.transport = transport;
    client.onclose = () => this.closed(client);
    this.set('connected');
  }

  private async list(client: Client): Promise<void> {
    const caps = client.getServerCapabilities() ?? {};
    const timeout = this.options.startupTimeoutMs;
    const tools: AnyTool[] = [];
    const skipped: string[] = [];
    if (caps.tools) {
      for (const raw of await this.page(client, 'tools/list', 'tools', timeout)) {
        try {
          tools.push(createMcpTool(this.name, checkListedTool(raw), { call: (tool, args, signal) => this.call(tool, args, signal) }));
        } catch (err) {
          skipped.push(`${errorMessage(err)}; tool skipped`);
        }
      }
    }
    const prompts: McpPromptInfo[] = [];
    if (caps.prompts) {
      for (const raw of await this.page(client, 'prompts/list', 'prompts', timeout)) {
        const p = raw as { name?: unknown; description?: unknown; arguments?: unknown };
        if (typeof p.name !== 'string') continue;
        const args = Array.isArray(p.arguments) ? (p.arguments as { name?: unknown; required?: unknown }[]) : [];
        prompts.push({
          name: p.name,
          ...(typeof p.description === 'string' ? { description: p.description } : {}),
          arguments: args.filter((a) => typeof a.name === 'string').map((a) => ({ name: a.name as string, required: a.required === true })),
        });
      }
    }
    this.tools = tools;
    Object.assign(this.status, { tools: tools.map((t) => t.name), skipped, prompts, resources: caps.resources !== undefined });
  }

  /** Every page of a list request, read loosely so one bad entry costs that entry, not the server. */
  private async page(client: Client, method: string, key: string, timeout: number): Promise<unknown[]> {
    const out: unknown[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < PAGE_LIMIT; i++) {
      const result = await client.request({ method, params: cursor ? { cursor } : {} }, LooseList, { timeout });
      const items = (result as Record<string, unknown>)[key];
      if (Array.isArray(items)) out.push(...(items as unknown[]));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return out;
  }

  private closed(client: Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.transport = undefined;
    if (this.closing) return;
    const delay = this.options.restartDelaysMs[this.restarts];
    const why = this.withStderr('the server exited');
    if (delay === undefined) {
      this.set('failed', `${why}\n(gave up after ${this.restarts} restarts; /mcp reconnect ${this.name} tries again)`);
      return;
    }
    this.restarts += 1;
    this.set('failed', `${why}\n(restarting in ${Math.round(delay / 100) / 10} s)`);
    this.restartTimer = setTimeout(() => void this.start(), delay);
    this.restartTimer.unref();
  }

  private withStderr(message: string): string {
    const tail = this.stderr.tail();
    return tail ? `${message}; stderr:\n${tail}` : message;
  }

  /** A tools/call: an error result when not connected, on a timeout, or when the server dies. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const client = this.client;
    if (!client) return { content: this.notConnected(), isError: true };
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.options.toolTimeoutMs });
      return { content: describeToolResult(result), ...(result.isError === true ? { isError: true } : {}) };
    } catch (err) {
      return { content: `MCP server "${this.name}", tool "${tool}": ${this.failure(err)}`, isError: true };
    }
  }

  /** Runs a request against the connected client; throws a message naming the server. */
  async request<T>(run: (client: Client, options: { signal?: AbortSignal; timeout: number }) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const client = this.client;
    if (!client) throw new Error(this.notConnected());
    try {
      return await run(client, { ...(signal ? { signal } : {}), timeout: this.options.toolTimeoutMs });
    } catch (err) {
      throw new Error(`MCP server "${this.name}": ${this.failure(err)}`, { cause: err });
    }
  }

  private notConnected(): string {
    return `MCP server "${this.name}" is not connected (${this.status.state}${this.status.error ? `: ${this.status.error}` : ''})`;
  }

  private failure(err: unknown): string {
    const message = errorMessage(err);
    if (/timed out/i.test(message)) return `no answer within ${this.options.toolTimeoutMs / 1000} s (MCP_TOOL_TIMEOUT): ${message}`;
    if (/connection closed/i.test(message)) return this.withStderr(`the server exited during the call (${message})`);
    return message;
  }

  /** Stops the server; it stays stopped (no restart) until start() again. */
  async stop(state: McpServerState = 'disabled', why?: string): Promise<void> {
    clearTimeout(this.restartTimer);
    this.closing = true;
    const client = this.client;
    const transport = this.transport;
    this.client = undefined;
    this.transport = undefined;
    this.tools = [];
    Object.assign(this.status, { tools: [], prompts: [], resources: false });
    if (client) await closeClient(client, transport).catch(() => undefined);
    this.set(state, why);
  }

  /** A restart asked for by the user starts the backoff again. */
  async reconnect(): Promise<void> {
    await this.stop('connecting');
    this.restarts = 0;
    await this.start();
  }
}
