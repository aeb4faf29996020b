import { errorMessage } from '../../src/util/error-message.js';
import { stripTerminalControls } from '../../src/util/terminal-text.js';
import type { HookRunner } from '../../src/hooks/hook-types.js';
import { hookLine } from '../../src/runtime/hook-wiring.js';
import { worktreeRemoveHooks } from '../../src/worktrees/worktree-hooks.js';
import { listCairnWorktrees, removeCairnWorktree, worktreeListing } from '../../src/worktrees/worktree-list.js';
import type { SlashCommand } from './registry.js';

const USAGE = 'Usage: /worktrees (list them), /worktrees remove NAME (a clean one; its branch stays)';

/** `/worktrees`: cairn's git worktrees (the session's, agents') with branch, path, state and commits ahead; removes a clean one. */
export function worktreesCommand(cwd: string, hooks?: HookRunner): SlashCommand {
  return {
    name: 'worktrees',
    description: 'List cairn\'s git worktrees (the session\'s, agents\'): branch, state, commits ahead; remove a clean one',
    argHint: '[remove NAME]',
    async run(args, ctx) {
      const [verb, name, ...rest] = args.split(/\s+/).filter(Boolean);
      try {
        if (verb === undefined) return ctx.print(stripTerminalControls(worktreeListing(await listCairnWorktrees(cwd))));
        if (verb !== 'remove' || name === undefined || rest.length > 0) return ctx.print(USAGE, 'warning');
        ctx.print(await removeCairnWorktree(cwd, name, (dir) => worktreeRemoveHooks(hooks, dir, (event) => ctx.print(hookLine(event)))));
      } catch (error) {
        ctx.print(stripTerminalControls(`/worktrees: ${errorMessage(error)}`), 'warning');
      }
    },
  };
}
