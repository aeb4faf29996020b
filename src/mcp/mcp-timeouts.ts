// MCP_TIMEOUT (a server's start-up) and MCP_TOOL_TIMEOUT (one call), in ms as in Claude Code. A
// value over a day is cut to a day and said once: the SDK hands it to setTimeout, which fires at
// once when the delay overflows.
import { clampConfiguredWait, MAX_CONFIGURED_WAIT_MS } from '../util/timer-limit.js';

export interface McpTimeouts {
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  problems: string[];
}

export function mcpTimeouts(env: NodeJS.ProcessEnv): McpTimeouts {
  const problems: string[] = [];
  const read = (key: string, fallback: number): number => {
    const raw = env[key];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) {
      problems.push(`${key} must be a positive number of milliseconds, got "${raw}"; using ${fallback}`);
      return fallback;
    }
    const { ms, clamped } = clampConfiguredWait(value);
    if (clamped) problems.push(`${key}=${raw} ms is longer than cairn waits for an MCP server; using ${MAX_CONFIGURED_WAIT_MS} ms (24 hours)`);
    return Math.max(1, ms);
  };
  return { startupTimeoutMs: read('MCP_TIMEOUT', 30_000), toolTimeoutMs: read('MCP_TOOL_TIMEOUT', 300_000), problems };
}
