// Resources reach the model through two tools: one lists what the servers offer, one reads an address.
import * as z from 'zod';
import type { AnyTool } from '../tools/tool.js';
import { defineTool } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';
import type { McpConnection } from './mcp-connection.js';
import { describeResourceContents } from './mcp-result.js';

export const LIST_RESOURCES = 'mcp_list_resources';
export const READ_RESOURCE = 'mcp_read_resource';

export function createResourceTools(connections: () => readonly McpConnection[]): AnyTool[] {
  const withResources = (server?: string): McpConnection[] =>
    connections().filter((c) => c.status.resources && c.status.state === 'connected' && (server === undefined || c.name === server));

  const list = defineTool({
    name: LIST_RESOURCES,
    description: 'List the resources (files, records, documents) offered by the connected MCP servers, with the uri to read each by.',
    inputSchema: z.object({ server: z.string().optional().describe('Only this server') }),
    kind: 'other',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    async call({ server }, ctx) {
      const servers = withResources(server);
      if (servers.length === 0) return { content: server ? `No connected MCP server "${server}" with resources.` : 'No connected MCP server offers resources.', isError: server !== undefined };
      const lines: string[] = [];
      for (const c of servers) {
        try {
          const { resources } = await c.request((client, options) => client.listResources({}, options), ctx.signal);
          for (const r of resources) lines.push(`${c.name}: ${r.uri}  ${r.name}${r.mimeType ? ` (${r.mimeType})` : ''}${r.description ? ` - ${r.description}` : ''}`);
          if (resources.length === 0) lines.push(`${c.name}: (no resources)`);
        } catch (err) {
          lines.push(`${c.name}: ${errorMessage(err)}`);
        }
      }
      return { content: lines.join('\n') };
    },
  });

  const read = defineTool({
    name: READ_RESOURCE,
    description: 'Read one resource of an MCP server by its uri (see mcp_list_resources).',
    inputSchema: z.object({ server: z.string(), uri: z.string() }),
    kind: 'other',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    async call({ server, uri }, ctx) {
      const c = withResources(server)[0];
      if (!c) return { content: `No connected MCP server "${server}" with resources.`, isError: true };
      try {
        const { contents } = await c.request((client, options) => client.readResource({ uri }, options), ctx.signal);
        if (contents.length === 0) return { content: `${uri}: empty` };
        return { content: contents.map((x) => describeResourceContents(x as Record<string, unknown>)).join('\n') };
      } catch (err) {
        return { content: errorMessage(err), isError: true };
      }
    },
  });
  return [list, read];
}
