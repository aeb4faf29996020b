// Whether a server may start. A project's own files (.mcp.json, its settings) are written by whoever
// wrote the repository, and a stdio server is a command cairn runs: such a server starts only when
// the user trusted the workspace, or approved it in settings the project cannot write.
import type { SettingsLayer } from '../settings/settings-layers.js';
import type { McpServerEntry } from './mcp-config.js';

export type McpApproval = { start: true } | { start: false; why: string };

export interface McpApprovalContext {
  layers: readonly SettingsLayer[];
  /** The user trusted this workspace (asked once, remembered per project). */
  trusted: boolean;
}

/**
 * Claude Code's keys: `disabledMcpjsonServers` in any file keeps a server off (a rejection wins);
 * `enableAllProjectMcpServers` or `enabledMcpjsonServers` approve it, but only from the user's own
 * settings unless the workspace is trusted (a committed approval proves nothing).
 */
export function approveServer(entry: McpServerEntry, ctx: McpApprovalContext): McpApproval {
  if (entry.scope !== 'project') return { start: true };
  const disabledIn = ctx.layers.find((l) => stringList(l.data['disabledMcpjsonServers']).includes(entry.name));
  if (disabledIn) return { start: false, why: `disabled in ${disabledIn.file} (disabledMcpjsonServers)` };
  if (ctx.trusted) return { start: true };
  const approvedBy = ctx.layers
    .filter((l) => l.scope === 'user')
    .find((l) => l.data['enableAllProjectMcpServers'] === true || stringList(l.data['enabledMcpjsonServers']).includes(entry.name));
  if (approvedBy) return { start: true };
  return {
    start: false,
    why: `a project server (${entry.source}) waits for approval: trust this workspace, or name it in enabledMcpjsonServers in your user settings`,
  };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
