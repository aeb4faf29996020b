// Every configured MCP server for one session. Servers start in parallel in the background; their
// tools join the session's tool list (edited in place, read at the start of each turn) as they
// connect, so start-up never waits for a server.
import type { SettingsLayer } from '../settings/settings-layers.js';
import type { AnyTool } from '../tools/tool.js';
import { approveServer } from './mcp-approval.js';
import type { McpConfig } from './mcp-config.js';
import type { McpProjectChoices } from './mcp-project-choices.js';
import { McpConnection, type McpServerStatus } from './mcp-connection.js';
import { createResourceTools, LIST_RESOURCES, READ_RESOURCE } from './mcp-resource-tools.js';
import { describeBlock, type McpContentBlock } from './mcp-result.js';
import { mcpTimeouts } from './mcp-timeouts.js';

export interface McpManagerOptions {
  config: McpConfig;
  layers: readonly SettingsLayer[];
  /** Whether the workspace is trusted: only then do the user's answers about its servers count. */
  trusted: boolean;
  /** The user's answers about the project's servers (mcp-project-choices.ts). */
  choices?: McpProjectChoices;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** The session's tool list: MCP tools are added to and removed from it in place. */
  tools: AnyTool[];
  /** Every change of any server's state. */
  onStatus?: (servers: readonly McpServerStatus[]) => void;
  restartDelaysMs?: readonly number[];
}

export interface McpManager {
  /** Starts every approved server in the background; returns at once. */
  start(): void;
  /** Resolves when every server that started has connected or failed. */
  ready(): Promise<void>;
  statuses(): McpServerStatus[];
  reconnect(name: string): Promise<string>;
  enable(name: string): Promise<string>;
  disable(name: string): Promise<string>;
  /** The text of a server's prompt with its arguments filled, for `/mcp__<server>__<prompt>`. */
  prompt(server: string, prompt: string, args: string): Promise<string>;
  close(): Promise<void>;
}

const DEFAULT_RESTART_DELAYS = [1_000, 2_000, 4_000, 8_000, 16_000];

export function createMcpManager(options: McpManagerOptions): McpManager {
  // Problems with the two variables are told by setUpMcp, which reads them too.
  const { startupTimeoutMs, toolTimeoutMs } = mcpTimeouts(options.env);
  let started: Promise<void>[] = [];
  let closed = false;

  const changed = (): void => {
    if (closed) return;
    syncTools();
    options.onStatus?.(connections.map((c) => c.status));
  };
  const connections = options.config.servers.map((entry) => {
    const approval = approveServer(entry, options);
    return new McpConnection(
      {
        entry,
        env: options.env,
        cwd: options.cwd,
        startupTimeoutMs,
        toolTimeoutMs,
        restartDelaysMs: options.restartDelaysMs ?? DEFAULT_RESTART_DELAYS,
        onChange: changed,
      },
      approval.start ? { state: 'connecting' } : { state: approval.state, error: approval.why },
    );
  });
  const resourceTools = createResourceTools(() => connections);

  function syncTools(): void {
    const mine = new Set([LIST_RESOURCES, READ_RESOURCE]);
    for (let i = options.tools.length - 1; i >= 0; i--) {
      const name = options.tools[i]?.name ?? '';
      if (name.startsWith('mcp__') || mine.has(name)) options.tools.splice(i, 1);
    }
    for (const c of connections) if (c.status.state === 'connected') options.tools.push(...c.tools);
    if (connections.some((c) => c.status.state === 'connected' && c.status.resources)) options.tools.push(...resourceTools);
  }

  const find = (name: string): McpConnection | undefined => connections.find((c) => c.name === name);
  const unknown = (name: string): string => `No MCP server "${name}". Configured: ${connections.map((c) => c.name).join(', ') || 'none'}.`;

  return {
    start() {
      started = connections.filter((c) => c.status.state === 'connecting').map((c) => c.start());
    },
    async ready() {
      await Promise.all(started);
    },
    statuses: () => connections.map((c) => ({ ...c.status })),
    async reconnect(name) {
      const c = find(name);
      if (!c) return unknown(name);
      if (c.status.state === 'pending' || c.status.state === 'disabled') return `MCP server "${name}" is ${c.status.state}; /mcp enable ${name} starts it.`;
      await c.reconnect();
      return `MCP server "${name}": ${c.status.state}${c.status.error ? `: ${c.status.error}` : ''}`;
    },
    async enable(name) {
      const c = find(name);
      if (!c) return unknown(name);
      if (c.status.state === 'connected' || c.status.state === 'connecting') return `MCP server "${name}" is already ${c.status.state}.`;
      await c.reconnect();
      return `MCP server "${name}": ${c.status.state}${c.status.error ? `: ${c.status.error}` : ''}`;
    },
    async disable(name) {
      const c = find(name);
      if (!c) return unknown(name);
      await c.stop('disabled', 'disabled for this session with /mcp disable');
      return `MCP server "${name}" disabled for this session.`;
    },
    async prompt(server, prompt, args) {
      const c = find(server);
      if (!c) throw new Error(unknown(server));
      const info = c.status.prompts.find((p) => p.name === prompt);
      if (!info) throw new Error(`MCP server "${server}" has no prompt "${prompt}".`);
      const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
      const filled: Record<string, string> = {};
      info.arguments.forEach((a, i) => {
        const last = i === info.arguments.length - 1;
        const value = last ? words.slice(i).join(' ') : words[i];
        if (value !== undefined && value !== '') filled[a.name] = value;
      });
      const missing = info.arguments.filter((a) => a.required && filled[a.name] === undefined).map((a) => a.name);
      if (missing.length > 0) throw new Error(`/mcp__${server}__${prompt} needs: ${info.arguments.map((a) => a.name).join(' ')} (missing ${missing.join(', ')})`);
      const result = await c.request((client, opts) => client.getPrompt({ name: prompt, arguments: filled }, opts));
      return result.messages.map((m) => describeBlock(m.content as McpContentBlock)).join('\n\n');
    },
    async close() {
      closed = true;
      await Promise.all(connections.map((c) => c.stop()));
    },
  };
}
