import * as z from 'zod';
import type { ShellManager } from '../shells/shell-manager.js';
import { errorResult } from './result.js';
import { defineTool, type Tool } from './tool.js';

const inputSchema = z.object({
  id: z.string().describe('The background shell id returned by bash with run_in_background (e.g. "bash_1").'),
});

export type BashOutputInput = z.infer<typeof inputSchema>;

/** The error for an unknown id, listing the shells that do exist. */
export function unknownShell(shells: ShellManager, id: string): string {
  const ids = shells.list().map((s) => `${s.id} (${s.status})`);
  return `No background shell with id "${id}". ${ids.length === 0 ? 'None have been started.' : `Known shells: ${ids.join(', ')}`}`;
}

export function createBashOutputTool(shells: ShellManager): Tool<BashOutputInput> {
  return defineTool<BashOutputInput>({
    name: 'bash_output',
    description:
      'Read the output a background shell (started by bash with run_in_background) produced since the last read, and its status: running, completed, failed or killed, with the exit code once it has ended.',
    inputSchema,
    describe: (input) => ({ title: `output of ${input.id}`, subject: { kind: 'input' } }),
    kind: 'other',
    effects: () => 'none',
    isConcurrencySafe: () => true,
    async call(input) {
      const id = input.id.trim();
      const r = shells.read(id);
      if (!r) return errorResult(unknownShell(shells, id));
      const ended =
        r.status === 'running'
          ? 'Status: running'
          : `Status: ${r.status}${r.exitCode !== undefined ? ` (exit code ${r.exitCode})` : r.signal ? ` (signal ${r.signal})` : ''}`;
      const out = r.newOutput.replace(/\n+$/, '');
      return {
        content: `${out === '' ? '(no new output)' : out}\n\n${ended}`,
        display: { kind: 'bash_output', shellId: id, status: r.status, exitCode: r.exitCode, truncated: r.truncated },
      };
    },
  });
}
