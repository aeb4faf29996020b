import * as z from 'zod';
import { forgetMemory, memoryPath, parseEntries, readMemory, saveMemory } from '../context/long-term-memory.js';
import { defineTool } from './tool.js';
import { errorMessage } from '../util/error-message.js';

const inputSchema = z.object({
  action: z.enum(['save', 'read', 'forget']).describe('save a new entry, read both memory files, or forget entry n'),
  scope: z.enum(['user', 'project']).optional().describe('user: every project; project: this one (default)'),
  text: z.string().optional().describe('For save: the fact to remember, one line'),
  index: z.number().int().positive().optional().describe('For forget: the entry number shown by read'),
});

export function createMemoryTool(opts: { cairnHome: string; now?: () => Date }) {
  const now = opts.now ?? (() => new Date());
  return defineTool({
    name: 'memory',
    description:
      'Long-term memory across sessions, kept in MEMORY.md files that are part of your instructions. ' +
      'save: remember a durable fact or preference (scope user for every project, project for this one); ' +
      'read: list the entries with numbers; forget: remove entry `index` of a scope.',
    inputSchema,
    kind: 'other',
    // What is saved enters every later session's instructions: that is asked, like a change outside.
    effects: (input) => (input.action === 'read' ? 'none' : 'world'),
    isConcurrencySafe: (input) => input.action === 'read',
    async call(input, ctx) {
      const where = { cairnHome: opts.cairnHome, cwd: ctx.cwd };
      const scope = input.scope ?? 'project';
      try {
        if (input.action === 'save') {
          if (!input.text?.trim()) return { content: 'memory save needs `text`: the fact to remember.', isError: true };
          const saved = await saveMemory(scope, where, input.text, now());
          return { content: `Saved to ${scope} memory (${saved.file}): ${saved.entry}` };
        }
        if (input.action === 'forget') {
          if (input.index === undefined) return { content: 'memory forget needs `index` (see memory read).', isError: true };
          const removed = await forgetMemory(scope, where, input.index);
          return removed === undefined
            ? { content: `There is no entry ${input.index} in ${scope} memory.`, isError: true }
            : { content: `Forgot ${scope} entry ${input.index}: ${removed}` };
        }
        const parts: string[] = [];
        for (const s of ['user', 'project'] as const) {
          const entries = parseEntries(await readMemory(memoryPath(s, where)));
          parts.push(`${s} memory (${memoryPath(s, where)}):`, ...(entries.length ? entries.map((e, i) => `  ${i + 1}. ${e}`) : ['  (empty)']));
        }
        return { content: parts.join('\n') };
      } catch (error) {
        return { content: `memory ${input.action} failed: ${errorMessage(error)}`, isError: true };
      }
    },
  });
}
