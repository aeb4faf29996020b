// The MCP manager as start-up sees it: the SDK (a few hundred milliseconds to load) and the servers'
// processes wait until start() has let the current task finish, so a screen being drawn in that task
// (the TUI's first frame) never waits for them. Until then /mcp shows each server as it will start.
import { approveServer } from './mcp-approval.js';
import type { McpServerStatus } from './mcp-connection.js';
import type { McpManager, McpManagerOptions } from './mcp-manager.js';
import { errorMessage } from '../util/error-message.js';

export function createLazyMcpManager(options: McpManagerOptions, load: () => Promise<McpManager> = defaultLoad(options)): McpManager {
  let real: McpManager | undefined;
  let loading: Promise<McpManager> | undefined;
  let started: Promise<void> | undefined;
  let closed = false;
  let loadFailed: string | undefined;

  const loaded = (): Promise<McpManager> => {
    loading ??= load().then((manager) => (real = manager));
    return loading;
  };
  const before = (): McpServerStatus[] =>
    options.config.servers.map((entry) => {
      const approval = approveServer(entry, options);
      return {
        name: entry.name,
        scope: entry.scope,
        source: entry.source,
        transport: entry.config.transport,
        state: loadFailed ? 'failed' : approval.start ? 'connecting' : approval.state,
        ...(loadFailed ? { error: loadFailed } : approval.start ? {} : { error: approval.why }),
        tools: [],
        skipped: [],
        prompts: [],
        resources: false,
      };
    });

  return {
    start() {
      started ??= (async () => {
        await new Promise((resolve) => setTimeout(resolve, 0));
        try {
          const manager = await loaded();
          if (!closed) manager.start();
        } catch (err) {
          loadFailed = `could not load the MCP client: ${errorMessage(err)}`;
          options.onStatus?.(before());
        }
      })();
    },
    async ready() {
      await started;
      await real?.ready();
    },
    statuses: () => real?.statuses() ?? before(),
    reconnect: async (name) => (await loaded()).reconnect(name),
    enable: async (name) => (await loaded()).enable(name),
    disable: async (name) => (await loaded()).disable(name),
    prompt: async (server, prompt, args) => (await loaded()).prompt(server, prompt, args),
    async close() {
      closed = true;
      // A start still loading the SDK starts nothing now; one that has loaded is closed.
      if (loading) await (await loading.catch(() => undefined))?.close();
    },
  };
}

function defaultLoad(options: McpManagerOptions): () => Promise<McpManager> {
  return async () => (await import('./mcp-manager.js')).createMcpManager(options);
}
