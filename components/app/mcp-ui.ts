// The MCP servers on the screen: /mcp, a /mcp__<server>__<prompt> command per server prompt as
// servers connect, and a warning when a server fails (once until it connects again; /mcp has the rest).
import type { McpManager } from '../../src/mcp/mcp-manager.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import { mcpCommands, watchMcpPrompts } from '../commands/mcp-commands.js';
import type { CommandRegistry } from '../commands/registry.js';
import type { TuiStore } from '../store/create-store.js';

type ServerStates = readonly { name: string; state: string; error?: string }[];

/** The warnings for servers that have just failed; `warned` remembers who was told. */
export function failureNotices(servers: ServerStates, warned: Set<string>): string[] {
  const out: string[] = [];
  for (const s of servers) {
    if (s.state === 'connected') warned.delete(s.name);
    if (s.state !== 'failed' || warned.has(s.name)) continue;
    warned.add(s.name);
    const why = s.error?.split('\n')[0]?.replace(/; stderr:$/, '') ?? 'no reason given';
    out.push(`MCP server "${s.name}" failed: ${why} (/mcp for details)`);
  }
  return out;
}

export function startMcpUi(input: { store: TuiStore; session: AgentSession; commands: CommandRegistry; mcp: McpManager | undefined }): () => void {
  const { store, session, commands, mcp } = input;
  for (const command of mcpCommands(mcp)) commands.register(command);
  if (!mcp) return () => undefined;
  const offPrompts = watchMcpPrompts(session, commands, mcp);
  const warned = new Set<string>();
  // A server may have failed before the screen listened.
  for (const message of failureNotices(mcp.statuses(), warned)) store.dispatch({ type: 'notice', level: 'warning', message });
  const offFailures = session.subscribe((event) => {
    if (event.type !== 'mcp_servers') return;
    for (const message of failureNotices(event.servers, warned)) store.dispatch({ type: 'notice', level: 'warning', message });
  });
  return () => {
    offPrompts();
    offFailures();
  };
}
