import * as z from 'zod';
import { forgetMemory, memoryPath, parseEntries, readMemory, saveMemory } from '../context/long-term-memory.js';
import { defineTool, type ToolContext } from './tool.js';
import { errorMessage } from '../util/error-message.js';
import { episodicDir, searchEpisodicNotes } from '../context/episodic-notes.js';
import { titleLine } from './call-view.js';

const inputSchema = z.object({
  action: z.enum(['save', 'read', 'forget', 'search']).describe('save a new entry, read both memory files, forget entry n, or search the episodic notes'),
  scope: z.enum(['user', 'project']).optional().describe('user: every project; project: this one (default)'),
  text: z.string().optional().describe('For save: the fact to remember, one line'),
  index: z.number().int().positive().optional().describe('For forget: the entry number shown by read'),
  query: z.string().optional().describe('For search: words that must all appear in a note entry (any case)'),
});

export function createMemoryTool(opts: { cairnHome: string; now?: () => Date }) {
  const now = opts.now ?? (() => new Date());
  return defineTool({
    name: 'memory',
    description:
      'Long-term memory across sessions, kept in MEMORY.md files that are part of your instructions. ' +
      'save: remember a durable fact or preference (scope user for every project, project for this one); ' +
      'read: list the entries with numbers; forget: remove entry `index` of a scope; ' +
      'search: find `query` in the episodic notes (.cairn/memory/YYYY-MM-DD.md, what earlier sessions were distilled into), newest first.',
    inputSchema,
    describe: (input) => ({ title: [input.action, input.scope, titleLine(input.text ?? input.query ?? ''), input.index === undefined ? '' : `#${input.index}`].filter(Boolean).join(' '), subject: { kind: 'input' } }),
    kind: 'other',
    // What is saved enters every later session's instructions: that is asked, like a change outside.
    effects: (input) => (input.action === 'read' || input.action === 'search' ? 'none' : 'world'),
    // ... and in auto mode only the user approves it: a classifier must not let injected text into every later prompt.
    onlyTheUserApproves: true,
    isConcurrencySafe: (input) => input.action === 'read' || input.action === 'search',
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
        if (input.action === 'search') return await searchNotes(ctx, input.query);
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

async function searchNotes(ctx: ToolContext, query: string | undefined): Promise<{ content: string; isError?: boolean }> {
  const { cwd } = ctx;
  if (!query?.trim()) return { content: 'memory search needs `query`: the words to look for in the episodic notes.', isError: true };
  const found = await searchEpisodicNotes(cwd, query, ctx.isReadDenied ? { isReadDenied: ctx.isReadDenied } : {});
  if (found.length === 0) return { content: `No episodic note in ${episodicDir(cwd)} mentions all of: ${query.trim()}` };
  const parts = found.map((m) => [`${m.day} ${m.heading}`, ...m.lines.map((l) => `  ${l}`)].join('\n'));
  return { content: `${found.length} entr${found.length === 1 ? 'y' : 'ies'} in ${episodicDir(cwd)} (newest first):\n\n${parts.join('\n\n')}` };
}
