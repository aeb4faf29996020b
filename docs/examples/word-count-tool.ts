// The example tool of docs/guide/add-a-tool.md: counts the lines and words of a file in the
// workspace. test/docs/examples.test.ts runs it through the real loop and permission chain.
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../src/tools/tool.js';
import { errorMessage } from '../../src/util/error-message.js';

const Input = z.object({
  path: z.string().describe('The file to count, absolute or relative to the workspace'),
});

export const wordCountTool = defineTool({
  name: 'word_count',
  description: 'Counts the lines and words of a text file.',
  inputSchema: Input,
  // How a call is shown: the title on its card (and in the scrollback and the browser page), and
  // what an approval of it is about (a path here; a command, a plan, a question or the raw input elsewhere).
  describe: (input) => ({ title: input.path, subject: { kind: 'path', path: input.path } }),
  kind: 'read',
  // Reads only: no approval inside the workspace, and allowed in plan mode.
  effects: () => 'none',
  // Reads can run beside other reads in one parallel batch.
  isConcurrencySafe: () => true,
  // The permission chain resolves these (symlinks too) and asks for anything outside the workspace.
  paths: (input) => [input.path],
  async call(input, ctx) {
    try {
      const text = await fs.readFile(path.resolve(ctx.cwd, input.path), { encoding: 'utf8', signal: ctx.signal });
      const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      const words = text.split(/\s+/).filter((w) => w !== '').length;
      return { content: `${input.path}: ${lines} lines, ${words} words` };
    } catch (error) {
      // Never throw into the loop: a failure is a result the model can read and act on.
      return { content: `Cannot count ${input.path}: ${errorMessage(error)}`, isError: true };
    }
  },
});
