import * as z from 'zod';
import type { ShellManager } from '../shells/shell-manager.js';
import { unknownShell } from './bash-output.js';
import { errorResult } from './result.js';
import { defineTool, type Tool } from './tool.js';

const inputSchema = z.object({
  id: z.string().describe('The background shell id to stop (e.g. "bash_1").'),
});

export type KillShellInput = z.infer<typeof inputSchema>;

export function createKillShellTool(shells: ShellManager): Tool<KillShellInput> {
  return defineTool<KillShellInput>({
    name: 'kill_shell',
    description: 'Stop a background shell started by bash with run_in_background: its whole process group gets SIGTERM, then SIGKILL if it lingers.',
    inputSchema,
    describe: (input) => ({ title: `stop ${input.id}`, subject: { kind: 'input' } }),
    kind: 'other',
    effects: () => 'world',
    isConcurrencySafe: () => false,
    async call(input) {
      const id = input.id.trim();
      const shell = shells.list().find((s) => s.id === id);
      if (!shell) return errorResult(unknownShell(shells, id));
      if (shell.status !== 'running') {
        return { content: `Background shell ${id} had already ended (${shell.status}${shell.exitCode !== undefined ? `, exit code ${shell.exitCode}` : ''}).` };
      }
      await shells.kill(id);
      return { content: `Killed background shell ${id}.` };
    },
  });
}
