// The status bar's MCP segment; kept apart from the client so the screen does not load the SDK.

/** "MCP 2 connected, 1 failed"; empty without servers. */
export function mcpSummary(servers: readonly { state: string }[]): string {
  if (servers.length === 0) return '';
  const order = ['connecting', 'connected', 'failed', 'pending', 'disabled'];
  const parts = order.map((state) => [state, servers.filter((s) => s.state === state).length] as const).filter(([, n]) => n > 0);
  return `MCP ${parts.map(([state, n]) => `${n} ${state}`).join(', ')}`;
}
