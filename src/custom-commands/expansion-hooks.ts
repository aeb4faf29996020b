// UserPromptExpansion (Claude Code's hook point between `/name args` and the prompt the model gets):
// the hook sees the command's name, its arguments, where it came from and the expanded prompt; it
// may block the expansion (exit 2 or `decision: "block"`, the reason shown to the user) or add
// context (plain stdout or `additionalContext`), which goes with the prompt.
import type { AgentEvent } from '../events.js';
import { contextOf, firstBlock, hookEvents } from '../hooks/hook-events.js';
import type { HookRunner } from '../hooks/hook-types.js';
import { sourceScope, type SkillSource } from '../skills/skill.js';

/** The session's hooks as slash prompts see them: the runner, and where what a hook did is shown. */
export interface ExpansionHooks {
  runner: HookRunner;
  emit: (event: AgentEvent) => void;
}

export type ExpansionVerdict = { blocked: string } | { prompt: string };

/** Claude Code's `command_source`: `plugin`, `builtin` (cairn's shipped skills), else `skill` (commands are skills there). */
export function commandSource(source: SkillSource): string {
  if (source === 'plugin') return 'plugin';
  return sourceScope(source) === 'built-in' ? 'builtin' : 'skill';
}

/** Runs the UserPromptExpansion hooks matching the command; the prompt to send (context added) or why it was blocked. */
export async function runExpansionHooks(
  hooks: ExpansionHooks | undefined,
  what: { name: string; args: string; source: SkillSource; prompt: string },
  signal?: AbortSignal,
): Promise<ExpansionVerdict> {
  if (!hooks?.runner.has('UserPromptExpansion', what.name)) return { prompt: what.prompt };
  const run = await hooks.runner.run({ event: 'UserPromptExpansion', commandName: what.name, commandArgs: what.args, commandSource: commandSource(what.source), prompt: what.prompt }, signal);
  for (const event of hookEvents(run)) hooks.emit(event);
  const block = firstBlock(run);
  if (block) return { blocked: `/${what.name} was blocked by a UserPromptExpansion hook (${block.outcome.hook.source}): ${block.reason}` };
  const context = contextOf(run);
  return { prompt: context === undefined ? what.prompt : `${what.prompt}\n\n<hook-context>\n${context}\n</hook-context>` };
}
