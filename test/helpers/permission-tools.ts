import { z } from 'zod';
import { defineTool } from '../../src/tools/tool.js';

/** A bash tool as the permission chain sees it: its command, and effects on the world. It runs nothing. */
export const fakeBashTool = defineTool({
  name: 'bash',
  description: 'bash (a stand-in that runs nothing)',
  inputSchema: z.object({ command: z.string() }),
  kind: 'execute',
  effects: () => 'world' as const,
  command: (input) => input.command,
  call: async () => ({ content: '' }),
});
