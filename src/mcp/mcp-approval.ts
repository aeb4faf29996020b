// Whether a server may start. A project's own files (.mcp.json, its settings) are written by whoever
// wrote the repository (or by the model, editing them), and a stdio server is a command cairn runs:
// such a server starts only when the user approved that server by name, in the question cairn asks
// (remembered per project, mcp-project-choices.ts) or in settings the project cannot write.
// Trusting the folder is not enough: a server added after that is asked about, as in Claude Code.
import type { SettingsLayer } from '../settings/settings-layers.js';
import type { McpServerEntry } from './mcp-config.js';
import type { McpProjectChoices } from './mcp-project-choices.js';

export type McpApproval =
  | { start: true }
  /** pending: nobody has answered yet (/mcp says "needs approval"); disabled: the user said no. */
  | { start: false; state: 'pending' | 'disabled'; why: string };

export interface McpApprovalContext {
  layers: readonly SettingsLayer[];
  /** The user trusted this workspace (asked once, remembered per project). */
  trusted: boolean;
  /** The user's answers about this project's servers; absent: none. */
  choices?: McpProjectChoices;
}

/** The start of the `why` of a server the user declined, which /mcp shows as "declined". */
export const DECLINED = 'declined';

/**
 * Claude Code's keys: `disabledMcpjsonServers` in any file keeps a server off (a rejection wins);
 * `enableAllProjectMcpServers` or `enabledMcpjsonServers` approve it only from the user's own
 * settings (a committed or project-local approval is the repository approving itself). An answer
 * the user gave counts once the folder is trusted; a server nobody has approved waits.
 */
export function approveServer(entry: McpServerEntry, ctx: McpApprovalContext): McpApproval {
  if (entry.scope !== 'project') return { start: true };
  const disabledIn = ctx.layers.find((l) => stringList(l.data['disabledMcpjsonServers']).includes(entry.name));
  if (disabledIn) return { start: false, state: 'disabled', why: `${DECLINED} in ${disabledIn.file} (disabledMcpjsonServers)` };
  const approvedBy = ctx.layers
    .filter((l) => l.scope === 'user')
    .find((l) => l.data['enableAllProjectMcpServers'] === true || stringList(l.data['enabledMcpjsonServers']).includes(entry.name));
  if (approvedBy) return { start: true };
  if (!ctx.trusted) {
    return {
      start: false,
      state: 'pending',
      why: `needs approval: a project server (${entry.source}); trust this workspace and approve it (start cairn here without -p), or add "${entry.name}" to enabledMcpjsonServers in your user settings`,
    };
  }
  if (ctx.choices?.declined.includes(entry.name)) {
    return { start: false, state: 'disabled', why: `${DECLINED} when asked (remembered for this project); /mcp enable ${entry.name} starts it for this session` };
  }
  if (ctx.choices?.approved.includes(entry.name)) return { start: true };
  return {
    start: false,
    state: 'pending',
    why: `needs approval: a new project server (${entry.source}); start cairn here without -p to be asked, or add "${entry.name}" to enabledMcpjsonServers in your user settings`,
  };
}

/** The project servers nobody has answered about yet: what the question at start asks. */
export function serversToAsk(servers: readonly McpServerEntry[], ctx: McpApprovalContext): McpServerEntry[] {
  return servers.filter((s) => {
    const approval = approveServer(s, ctx);
    return !approval.start && approval.state === 'pending';
  });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
