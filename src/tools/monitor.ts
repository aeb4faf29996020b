import * as z from 'zod';
import type { ShellManager } from '../shells/shell-manager.js';
import { DEFAULT_WATCH_LIMITS, type ShellWatches } from '../shells/shell-watches.js';
import { unknownShell } from './bash-output.js';
import { errorResult } from './result.js';
import { defineTool, type Tool } from './tool.js';

// Claude Code's Monitor, for a shell cairn already runs: bash run_in_background starts the command
// (through the permission chain like any command); watching what it prints changes nothing, so it
// is never asked.

const inputSchema = z.object({
  shell_id: z.string().describe('The background shell to watch: the id bash with run_in_background returned (e.g. "bash_1").'),
  pattern: z
    .string()
    .optional()
    .describe('A JavaScript regular expression; only lines matching it are delivered (e.g. "error|fail|panic"). Omit it to get every new line. Cover failures, not only success: silence is not success.'),
  description: z.string().optional().describe('What you are watching for, in a few words; shown to the user.'),
  stop: z.boolean().optional().describe('Stop watching this shell (the shell keeps running; kill_shell stops it).'),
});

export type MonitorInput = z.infer<typeof inputSchema>;

const L = DEFAULT_WATCH_LIMITS;
const description = `Watch a background shell's output while you work: its new lines (only those matching pattern, when given) are delivered to you as notes in your next request, and when you are idle they start a new turn. Use it for a dev server's errors, a test watcher's failures, a log you wait on; start the command first with bash run_in_background: true.
- Lines are gathered for ${L.batchMs / 1000} s, at most ${L.maxLines} per delivery and ${L.perWindow} deliveries a minute; lines over that are dropped and counted (bash_output still has them). Filter tightly with pattern.
- When the shell ends you get one last note with its exit code, and the watch is over. Call again with stop: true to stop watching; calling again with another pattern replaces the watch.`;

/** The error for a pattern that is not a JavaScript regular expression, naming it. */
function badPattern(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return `The pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}. Nothing is being watched.`;
  }
}

export function createMonitorTool(shells: ShellManager, watches: ShellWatches): Tool<MonitorInput> {
  return defineTool<MonitorInput>({
    name: 'monitor',
    description,
    inputSchema,
    describe: (input) => ({
      title: input.stop ? `stop watching ${input.shell_id}` : `watch ${input.shell_id}${input.pattern !== undefined ? ` for /${input.pattern}/` : ''}`,
      subject: { kind: 'input' },
    }),
    kind: 'other',
    // Reads what a shell prints: the command itself was approved (or not) when bash started it.
    effects: () => 'none',
    isConcurrencySafe: () => true,
    async call(input) {
      const id = input.shell_id.trim();
      if (input.stop) {
        return watches.stop(id, 'asked to stop watching') ? { content: `Stopped watching ${id}; the shell keeps running.` } : errorResult(`The background shell ${id} is not being watched.`);
      }
      if (!shells.list().some((s) => s.id === id)) return errorResult(unknownShell(shells, id));
      const pattern = input.pattern === '' ? undefined : input.pattern;
      const bad = pattern !== undefined ? badPattern(pattern) : undefined;
      if (bad) return errorResult(bad);
      const started = watches.start(id, { ...(pattern !== undefined ? { pattern } : {}), ...(input.description ? { description: input.description } : {}) });
      if (!started.ok) return errorResult(`Cannot watch: ${started.error}.`);
      const what = pattern !== undefined ? `lines matching /${pattern}/` : 'every new line';
      return {
        content: `${started.replaced ? 'Replaced the watch: now watching' : 'Watching'} ${id} (${started.info.command}): ${what} will reach you as it comes, and one last note when the shell ends. Stop with monitor {"shell_id": "${id}", "stop": true}.`,
      };
    },
  });
}
