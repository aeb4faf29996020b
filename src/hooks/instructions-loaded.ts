// InstructionsLoaded: told once per instruction file the context takes in (CLAUDE.md, AGENTS.md,
// rules files, their imports), at the first prompt and when a read brings in a subfolder's. As in
// Claude Code it only tells: it runs in the background and cannot block or change what is loaded.
import path from 'node:path';
import type { AgentEvent } from '../events.js';
import { hookEvents } from './hook-events.js';
import type { HookRunner } from './hook-types.js';

/** Claude Code's load_reason values that cairn has. */
export type InstructionsLoadReason = 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include';

/** Claude Code's memory_type: User (cairn's or Claude Code's home), Local (CLAUDE.local.md), else Project. */
export function memoryTypeOf(file: string, homes: readonly string[]): 'User' | 'Local' | 'Project' {
  if (homes.some((h) => file === h || file.startsWith(`${h}${path.sep}`))) return 'User';
  return path.basename(file) === 'CLAUDE.local.md' ? 'Local' : 'Project';
}

/** The callback the system prompt source calls for each newly loaded file; the hook's events go to `emit`. */
export function instructionsLoadedHooks(runner: HookRunner, emit: (event: AgentEvent) => void, homes: readonly string[]): (file: string, reason: InstructionsLoadReason) => void {
  return (file, reason) => {
    if (!runner.has('InstructionsLoaded', reason)) return;
    // The runner never throws; what a hook did (or its failure) is shown as its events.
    void runner.run({ event: 'InstructionsLoaded', source: reason, filePath: file, memoryType: memoryTypeOf(file, homes) }).then((run) => {
      for (const event of hookEvents(run)) emit(event);
    });
  };
}
