import * as z from 'zod';
import { defineTool } from './tool.js';
import { titleLine } from './call-view.js';

const inputSchema = z.object({
  instructions: z.string().optional().describe('What the summary should keep in particular'),
});

export function createCompactTool() {
  return defineTool({
    name: 'compact',
    description:
      'Compacts the conversation: earlier messages are replaced by a summary before your next turn, ' +
      'freeing context. Use it when the conversation is long and the earlier details are no longer needed verbatim.',
    inputSchema,
    describe: (input) => ({ title: titleLine(input.instructions ?? '') || 'the conversation', subject: { kind: 'input' } }),
    kind: 'other',
    // It changes nothing outside the conversation, so it needs no approval.
    effects: () => 'session',
    async call(input, ctx) {
      if (!ctx.requestCompaction) return { content: 'Compaction is not available here.', isError: true };
      ctx.requestCompaction(input.instructions);
      return { content: 'The conversation will be compacted before your next turn.' };
    },
  });
}
