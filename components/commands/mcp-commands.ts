// /mcp: the servers, their state, tools and errors; reconnect, enable or disable one. Each server
// prompt becomes a command of its own, /mcp__<server>__<prompt>, registered as the server connects.
import { DECLINED } from '../../src/mcp/mcp-approval.js';
import type { McpServerStatus } from '../../src/mcp/mcp-connection.js';
import type { McpManager } from '../../src/mcp/mcp-manager.js';
import type { AgentSession } from '../../src/session/agent-session.js';
import { errorMessage } from '../../src/util/error-message.js';
import type { CommandRegistry, SlashCommand } from './registry.js';

export function describeServers(servers: readonly McpServerStatus[]): string {
  if (servers.length === 0) return 'No MCP servers configured (.mcp.json, $CAIRN_HOME/mcp.json, "mcpServers" in settings, or --mcp-config).';
  const lines = [`MCP servers (${servers.length}):`];
  for (const s of servers) {
    const offers = [
      `${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`,
      ...(s.prompts.length > 0 ? [`${s.prompts.length} prompt${s.prompts.length === 1 ? '' : 's'}`] : []),
      ...(s.resources ? ['resources'] : []),
    ];
    lines.push(`  ${s.name}  ${stateLabel(s)}  ${s.transport}, ${s.scope}${s.state === 'connected' ? `  ${offers.join(', ')}` : ''}`);
    if (s.tools.length > 0) lines.push(`    tools: ${s.tools.join(', ')}`);
    if (s.prompts.length > 0) lines.push(`    prompts: ${s.prompts.map((p) => `/${promptCommandName(s.name, p.name)}`).join(', ')}`);
    for (const skipped of s.skipped) lines.push(`    skipped: ${skipped}`);
    if (s.error) lines.push(...s.error.split('\n').map((l) => `    ${l}`));
  }
  lines.push('', '/mcp reconnect <name> · /mcp enable <name> · /mcp disable <name>');
  return lines.join('\n');
}

/** A project server nobody has approved "needs approval"; one the user said no to is "declined". */
function stateLabel(s: McpServerStatus): string {
  if (s.state === 'pending') return 'needs approval';
  if (s.state === 'disabled' && s.error?.startsWith(DECLINED)) return DECLINED;
  return s.state;
}

/** Command names are matched lowercased; spaces become `_`, as in Claude Code. */
export function promptCommandName(server: string, prompt: string): string {
  return `mcp__${server}__${prompt}`.replace(/\s+/g, '_').toLowerCase();
}

export function mcpCommands(mcp: McpManager | undefined): SlashCommand[] {
  return [
    {
      name: 'mcp',
      description: 'MCP servers: state, tools and errors; reconnect, enable or disable one',
      argHint: '[reconnect|enable|disable <name>]',
      async run(args, ctx) {
        if (!mcp) return ctx.print(describeServers([]));
        const [action, name] = args.split(/\s+/).filter(Boolean);
        if (!action) return ctx.print(describeServers(mcp.statuses()));
        if (!name || !['reconnect', 'enable', 'disable'].includes(action)) {
          return ctx.print(`Usage: /mcp, /mcp reconnect <name>, /mcp enable <name>, /mcp disable <name>`, 'warning');
        }
        const act = action === 'reconnect' ? mcp.reconnect : action === 'enable' ? mcp.enable : mcp.disable;
        ctx.print(await act(name));
      },
    },
  ];
}

/** Registers /mcp__<server>__<prompt> for each prompt of a connected server, now and as servers connect. */
export function watchMcpPrompts(session: AgentSession, commands: CommandRegistry, mcp: McpManager | undefined): () => void {
  if (!mcp) return () => undefined;
  const register = (): void => {
    for (const server of mcp.statuses()) {
      for (const prompt of server.prompts) {
        const name = promptCommandName(server.name, prompt.name);
        if (commands.find(name)) continue;
        const args = prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ');
        commands.register({
          name,
          description: `${prompt.description ?? prompt.name} (MCP server "${server.name}")`,
          ...(args ? { argHint: args } : {}),
          async run(text, ctx) {
            try {
              ctx.session.submit(await mcp.prompt(server.name, prompt.name, text));
            } catch (err) {
              ctx.print(errorMessage(err), 'error');
            }
          },
        });
      }
    }
  };
  register();
  return session.subscribe((event) => {
    if (event.type === 'mcp_servers') register();
  });
}
