import path from 'node:path';
import type { AnyTool } from '../tools/tool.js';
import { errorMessage } from '../util/error-message.js';

/** Text the model should see with a result, for the absolute paths a tool touched; undefined for none. */
export type ContextForPaths = (paths: readonly string[], why: string) => Promise<string | undefined>;

/**
 * The tools, where those that read or edit files append to a successful result the instructions
 * that apply to the paths they touched (a subfolder's CLAUDE.md, a path-scoped rule), the first
 * time. In the result, the model sees it at once and it stays in the history.
 */
export function withFolderInstructions(tools: readonly AnyTool[], contextForPaths: ContextForPaths): AnyTool[] {
  return tools.map((tool) => {
    const paths = tool.paths?.bind(tool);
    if (!paths || (tool.kind !== 'read' && tool.kind !== 'edit')) return tool;
    const call: AnyTool['call'] = async (input, ctx) => {
      const result = await tool.call(input, ctx);
      if (result.isError) return result;
      try {
        const given = paths(input);
        const extra = await contextForPaths(given.map((p) => path.resolve(ctx.cwd, p)), `${tool.name} ${given.join(', ')}`);
        return extra ? { ...result, content: `${result.content}\n\n${extra}` } : result;
      } catch (error) {
        return { ...result, content: `${result.content}\n\n(cairn could not load the instructions for this folder: ${errorMessage(error)})` };
      }
    };
    // Built on the original as its prototype: every member (getters too) is the original's but `call`.
    return Object.create(tool, { call: { value: call, enumerable: true } }) as AnyTool;
  });
}
