import fs from 'node:fs/promises';
import path from 'node:path';
import { addFolder, foldersDown } from './instruction-files.js';
import type { ConditionalRule, InstructionFile, InstructionReader } from './instruction-reader.js';
import { within } from './instruction-reader.js';

export interface NestedInstructions {
  /**
   * Instructions that apply to these paths (absolute) and were not loaded yet: the CLAUDE.md and
   * AGENTS.md files of folders below the workspace, and `.claude/rules` whose `paths:` match.
   * Returns the text to add to the tool's result (undefined when there is none); each file once.
   */
  forPaths(paths: readonly string[], why: string): Promise<string | undefined>;
  /** Every file loaded so far this way. */
  loaded(): readonly InstructionFile[];
}

/**
 * As in Claude Code, a subfolder's instruction files join the context the first time a tool
 * reads a file there, and a path-scoped rule the first time a file it matches is read.
 */
export function createNestedInstructions(opts: { cwd: string; reader: InstructionReader; conditional: readonly ConditionalRule[] }): NestedInstructions {
  // The workspace and the folders above it were read at start.
  const visited = new Set<string>([opts.cwd]);
  const pending = [...opts.conditional];
  const found: InstructionFile[] = [];
  return {
    async forPaths(paths, why) {
      const added: InstructionFile[] = [];
      for (const abs of paths) {
        if (!within(opts.cwd, abs)) continue;
        const dir = (await isDirectory(abs)) ? abs : path.dirname(abs);
        for (const folder of foldersDown(opts.cwd, dir)) {
          if (visited.has(folder)) continue;
          visited.add(folder);
          const before = opts.reader.conditional.length;
          await addFolder(opts.reader, folder, added, why);
          pending.push(...opts.reader.conditional.slice(before));
        }
        for (let i = 0; i < pending.length; i++) {
          const rule = pending[i];
          if (!rule?.match(abs)) continue;
          pending.splice(i--, 1);
          await opts.reader.add(rule.path, added, { loadedFor: why });
        }
      }
      if (added.length === 0) return undefined;
      found.push(...added);
      const parts = added.map((f) => `Instructions from ${f.path}${f.importedBy ? ` (imported by ${f.importedBy})` : ''}, which apply to files there:\n\n${f.content}`);
      return `<system-reminder>\n${parts.join('\n\n')}\n</system-reminder>`;
    },
    loaded: () => found,
  };
}

async function isDirectory(abs: string): Promise<boolean> {
  try {
    return (await fs.stat(abs)).isDirectory();
  } catch {
    return false; // a file that is not there: its folder is still where the tool looked
  }
}
