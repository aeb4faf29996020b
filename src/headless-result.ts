// Claude Code's headless output shapes, so a script written for `claude -p --output-format json`
// or `stream-json` finds the fields it reads: the `system`/`init` line that opens a stream and the
// `result` object that ends it (and is the whole output of `json`). cairn's own fields ride along.
import { randomUUID } from 'node:crypto';
import type { AgentEvent, EventOf } from './events.js';
import type { Usage } from './usage.js';

/** Lines of Claude Code's shape in a stream-json recording; they are not cairn events. */
export function isClaudeCodeEnvelope(line: unknown): boolean {
  const type = (line as { type?: unknown } | null)?.type;
  return type === 'result' || type === 'stream_event' || type === 'control_request' || (type === 'system' && (line as { subtype?: unknown }).subtype === 'init');
}

/** One MCP server in the init line, as Claude Code lists it. */
export interface McpServerLine {
  name: string;
  status: 'connected' | 'failed' | 'pending' | 'disabled';
}

/** Claude Code's status words for a server's state (a server still connecting is pending). */
export function mcpServerLines(servers: readonly { name: string; state: 'pending' | 'disabled' | 'connecting' | 'connected' | 'failed' }[]): McpServerLine[] {
  return servers.map((s) => ({ name: s.name, status: s.state === 'connecting' ? 'pending' : s.state }));
}

/** The first line of a stream-json run, as Claude Code prints it. */
export function initLine(start: EventOf<'session_start'>, sessionId: string, mcpServers: readonly McpServerLine[] = []): Record<string, unknown> {
  return {
    type: 'system',
    subtype: 'init',
    session_id: sessionId,
    uuid: randomUUID(),
    cwd: start.cwd,
    model: start.model,
    permissionMode: start.permission_mode,
    tools: start.tools,
    mcp_servers: mcpServers,
    // cairn's own
    provider: start.provider,
    offline: start.offline,
  };
}

const SUBTYPES: Record<EventOf<'terminal'>['reason'], string> = {
  completed: 'success',
  max_turns: 'error_max_turns',
  max_tokens: 'error_during_execution',
  max_budget: 'error_max_budget_usd',
  aborted: 'error_during_execution',
  error: 'error_during_execution',
};

/** Follows a run's events for what the result line reports: denials (with their inputs) and turns. */
export class ResultTracker {
  private readonly inputs = new Map<string, unknown>();
  readonly denials: Array<{ tool_name: string; tool_use_id: string; tool_input: unknown }> = [];

  observe(event: AgentEvent): void {
    if (event.type === 'tool_start') this.inputs.set(event.id, event.input);
    else if (event.type === 'permission_denied') this.denials.push({ tool_name: event.name, tool_use_id: event.id, tool_input: this.inputs.get(event.id) ?? {} });
  }

  /** The result object: Claude Code's fields first, then cairn's (reason, turns, cost_usd, error). */
  result(opts: { terminal: EventOf<'terminal'>; sessionId: string; durationMs: number; usage: Usage; costUsd: number | null; turns: number }): Record<string, unknown> {
    const { terminal } = opts;
    const ok = terminal.reason === 'completed';
    return {
      type: 'result',
      subtype: SUBTYPES[terminal.reason],
      is_error: !ok,
      ...(ok ? { result: terminal.result ?? '' } : { errors: [terminal.error ?? (terminal.reason === 'aborted' ? 'interrupted' : terminal.reason)] }),
      session_id: opts.sessionId,
      uuid: randomUUID(),
      num_turns: opts.turns,
      duration_ms: opts.durationMs,
      total_cost_usd: opts.costUsd,
      usage: {
        input_tokens: opts.usage.input_tokens,
        output_tokens: opts.usage.output_tokens,
        cache_creation_input_tokens: opts.usage.cache_creation_input_tokens ?? 0,
        cache_read_input_tokens: opts.usage.cache_read_input_tokens ?? 0,
      },
      permission_denials: this.denials,
      // cairn's own
      reason: terminal.reason,
      ...(ok ? {} : { result: terminal.result ?? '' }),
      turns: terminal.turns,
      cost_usd: opts.costUsd,
      ...(terminal.error ? { error: terminal.error } : {}),
    };
  }
}
