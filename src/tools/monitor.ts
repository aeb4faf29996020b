import * as z from 'zod';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { ShellManager } from '../shells/shell-manager.js';
import { DEFAULT_WATCH_LIMITS, type ShellWatches } from '../shells/shell-watches.js';
import { duration } from '../shells/watch-notes.js';
import { sandboxAutoAllowsCommand, startBackgroundShell } from './bash.js';
import { unknownShell } from './bash-output.js';
import { titleLine } from './call-view.js';
import { errorResult } from './result.js';
import { defineTool, type Tool, type ToolContext, type ToolResult } from './tool.js';

// Claude Code's Monitor: {command} starts the command as a background shell, exactly as bash
// run_in_background would (the same permission chain: Bash(...) rules apply to it, and the same
// sandbox), and watches what it prints; {shell_id} watches a shell bash already started, which
// changes nothing and so is never asked.

export const MONITOR_DEFAULT_TIMEOUT_MS = 300_000;
export const MONITOR_MIN_TIMEOUT_MS = 1_000;
/** The longest timeout_ms in an interactive session; cairn -p allows MONITOR_MAX_TIMEOUT_HEADLESS_MS. */
export const MONITOR_MAX_TIMEOUT_MS = 1_800_000;
export const MONITOR_MAX_TIMEOUT_HEADLESS_MS = 600_000;

function schema(maxTimeoutMs: number) {
  return z.object({
    command: z
      .string()
      .optional()
      .describe('A shell command to start in the background and watch: each line it prints is an event for you; its exit ends the watch. Filter it to the lines that matter (e.g. "tail -f app.log | grep --line-buffered -E \'ERROR|FATAL\'").'),
    shell_id: z.string().optional().describe('Instead of command: a background shell to watch that bash with run_in_background already started (e.g. "bash_1").'),
    description: z.string().optional().describe('What you are watching for, in a few words; shown to the user and in each notification.'),
    timeout_ms: z
      .number()
      .int()
      .min(MONITOR_MIN_TIMEOUT_MS)
      .max(maxTimeoutMs)
      .optional()
      .describe(`With command: stop the command and the watch after this many milliseconds (default ${MONITOR_DEFAULT_TIMEOUT_MS}, min ${MONITOR_MIN_TIMEOUT_MS}, max ${maxTimeoutMs}).`),
    persistent: z.boolean().optional().describe('With command: run until stopped (no timeout), for the rest of the session.'),
    pattern: z
      .string()
      .optional()
      .describe('A JavaScript regular expression; only lines matching it are delivered (e.g. "error|fail|panic"). Omit it to get every new line. Cover failures, not only success: silence is not success.'),
    stop: z.boolean().optional().describe('With shell_id: stop watching it. A shell the watch started (with command) is stopped too; one bash started keeps running.'),
  });
}

export type MonitorInput = z.infer<ReturnType<typeof schema>>;

const L = DEFAULT_WATCH_LIMITS;

function describeMonitor(maxTimeoutMs: number): string {
  return `Start a command in the background and watch what it prints, or watch a background shell bash already started. Each line becomes a notification in your next request; when you are idle, new lines start a turn. Use it for log tails, dev servers' errors, test watchers, poll loops: events that come over time. For a single "tell me when it is done", use bash with run_in_background instead (you are told when it ends).
- command: runs like bash run_in_background (same permissions, same sandbox; /bashes lists it). Returns its shell id at once. It is stopped after timeout_ms (default ${duration(MONITOR_DEFAULT_TIMEOUT_MS)}, max ${duration(maxTimeoutMs)}; you are told it expired), or runs until stopped with persistent: true. When it exits you are told "stream ended" with its exit code.
- Filter at the source: pipe through grep --line-buffered (plain grep buffers its output in a pipe), or give pattern. Cover failures as well as success: silence is not success.
- Lines are gathered for ${L.batchMs / 1000} s, at most ${L.maxLines} per notification and ${L.perWindow} notifications a minute; the rest are dropped and counted (bash_output still has them). A watch that keeps dropping lines for ${duration(L.floodMs)} is stopped, its command too: filter better and start again.
- shell_id: watches a shell bash started; stop: true with its id stops watching (a command the watch started stops with it; kill_shell stops any shell). Calling again with a new pattern replaces the watch.`;
}

/** The error for a pattern that is not a JavaScript regular expression, naming it. */
function badPattern(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `The pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}. Nothing is being watched.`;
  }
}

/** Why an input names neither or both ways of watching, or mixes their fields; undefined when it is sound. */
function badShape(input: MonitorInput): string | undefined {
  const command = input.command !== undefined && input.command.trim() !== '';
  const shell = input.shell_id !== undefined && input.shell_id.trim() !== '';
  if (command && shell) return 'Give command (a command to start and watch) or shell_id (a background shell bash started), not both. Nothing is being watched.';
  if (!command && !shell) return 'Give command (a command to start and watch) or shell_id (a background shell bash started). Nothing is being watched.';
  if (command && input.stop) return 'stop takes the shell_id of the watch to stop, not a command. Nothing was stopped.';
  if (shell && !input.stop && (input.timeout_ms !== undefined || input.persistent !== undefined)) {
    return 'timeout_ms and persistent apply to a command monitor starts; a shell bash started runs until it ends or kill_shell stops it. Nothing is being watched.';
  }
  return undefined;
}

export interface MonitorToolOptions {
  /** The sandbox bash runs commands in: monitor's commands run there too. */
  sandbox?: CommandSandbox;
  /** The longest timeout_ms (Claude Code's: 30 min interactive, 10 min with -p); default the interactive one. */
  maxTimeoutMs?: number;
}

export function createMonitorTool(shells: ShellManager, watches: ShellWatches, options: MonitorToolOptions = {}): Tool<MonitorInput> {
  const { sandbox } = options;
  const maxTimeoutMs = options.maxTimeoutMs ?? MONITOR_MAX_TIMEOUT_MS;
  const runs = (input: MonitorInput): string | undefined => (input.command !== undefined && input.command.trim() !== '' ? input.command : undefined);

  const watchShell = (input: MonitorInput, id: string): ToolResult => {
    if (input.stop) {
      const owned = watches.list().find((w) => w.shellId === id)?.owned === true;
      if (!watches.stop(id, 'asked to stop watching')) return errorResult(`The background shell ${id} is not being watched.`);
      return { content: owned ? `Stopped watching ${id} and stopped its command.` : `Stopped watching ${id}; the shell keeps running.` };
    }
    if (!shells.list().some((s) => s.id === id)) return errorResult(unknownShell(shells, id));
    const pattern = input.pattern === '' ? undefined : input.pattern;
    const started = watches.start(id, { ...(pattern !== undefined ? { pattern } : {}), ...(input.description ? { description: input.description } : {}) });
    if (!started.ok) return errorResult(`Cannot watch: ${started.error}.`);
    const what = pattern !== undefined ? `lines matching /${pattern}/` : 'every new line';
    return {
      content: `${started.replaced ? 'Replaced the watch: now watching' : 'Watching'} ${id} (${started.info.command}): ${what} will reach you as it comes, and one last note when the shell ends. Stop with monitor {"shell_id": "${id}", "stop": true}.`,
    };
  };

  const startCommand = async (input: MonitorInput, command: string, ctx: ToolContext): Promise<ToolResult> => {
    const launched = await startBackgroundShell({ command }, ctx, shells, sandbox);
    if ('error' in launched) return errorResult(launched.error);
    const { id } = launched;
    const timeoutMs = input.persistent ? undefined : (input.timeout_ms ?? MONITOR_DEFAULT_TIMEOUT_MS);
    const pattern = input.pattern === '' ? undefined : input.pattern;
    const started = watches.start(id, {
      ...(pattern !== undefined ? { pattern } : {}),
      ...(input.description ? { description: input.description } : {}),
      owned: timeoutMs !== undefined ? { timeoutMs } : {},
    });
    if (!started.ok) {
      // It ended before the watch was in place (a spawn failure): its output is all there is.
      return errorResult(`Started background shell ${id}, but cannot watch it: ${started.error}.`);
    }
    const what = pattern !== undefined ? `Lines matching /${pattern}/` : 'Each line it prints';
    const until = timeoutMs !== undefined ? `It is stopped after ${duration(timeoutMs)} (timeout_ms) if it has not ended` : 'It runs until stopped (persistent)';
    return {
      content: `Started background shell ${id} and monitoring it. ${what} will reach you as it comes, and "stream ended" with its exit code when it exits. ${until}; stop it sooner with monitor {"shell_id": "${id}", "stop": true} or kill_shell {"id": "${id}"}.`,
      display: { kind: 'bash', command, description: input.description, background: true, shellId: id },
    };
  };

  return defineTool<MonitorInput>({
    name: 'monitor',
    description: describeMonitor(maxTimeoutMs),
    inputSchema: schema(maxTimeoutMs),
    describe: (input) => {
      const command = runs(input);
      if (command !== undefined) return { title: titleLine(input.description ?? '') || `monitor ${titleLine(command)}`, subject: { kind: 'command', command } };
      const id = input.shell_id ?? '';
      return { title: input.stop ? `stop watching ${id}` : `watch ${id}${input.pattern !== undefined ? ` for /${input.pattern}/` : ''}`, subject: { kind: 'input' } };
    },
    kind: 'other',
    // Starting a command is a command (judged by bash's rules too, in the sandbox when unasked); watching one changes nothing.
    effects: (input) => (runs(input) !== undefined ? 'world' : 'none'),
    command: runs,
    commandRulesOf: 'bash',
    sandboxAutoAllows: (input) => {
      const command = runs(input);
      return command !== undefined && sandboxAutoAllowsCommand(sandbox, command);
    },
    // What `Monitor(...)` rules match when the call starts nothing: the command of the shell it watches.
    ruleSubject: (input) => shells.list().find((s) => s.id === input.shell_id?.trim())?.command ?? input.shell_id ?? '',
    isConcurrencySafe: (input) => runs(input) === undefined,
    async call(input, ctx) {
      const shape = badShape(input);
      if (shape) return errorResult(shape);
      const bad = input.pattern !== undefined && input.pattern !== '' ? badPattern(input.pattern) : undefined;
      if (bad && !input.stop) return errorResult(bad);
      const command = runs(input);
      try {
        return command !== undefined ? await startCommand(input, command, ctx) : watchShell(input, (input.shell_id ?? '').trim());
      } catch (error) {
        return errorResult(`monitor failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  });
}
