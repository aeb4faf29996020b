import picomatch from 'picomatch';
import { readSettingsLayers, type SettingsLocations } from '../settings/settings-layers.js';
import { errorMessage } from '../util/error-message.js';

export interface ClaudeMdExcludes {
  /** Whether an instruction file (absolute path) is one the user's settings say to skip. */
  excluded(absPath: string): boolean;
  /** Settings values that could not be used, each naming its file and key. */
  problems: string[];
}

/**
 * Claude Code's `claudeMdExcludes`: glob patterns matched against the absolute paths of
 * instruction files (CLAUDE.md, rules, imports) to leave out, e.g. another team's CLAUDE.md in
 * a monorepo. The lists of every settings file add up. Leaving a file out widens nothing, so a
 * folder's own settings apply before it is trusted.
 */
export async function readClaudeMdExcludes(at: SettingsLocations): Promise<ClaudeMdExcludes> {
  const problems: string[] = [];
  const patterns: string[] = [];
  let layers;
  try {
    layers = (await readSettingsLayers(at)).layers;
  } catch (error) {
    // Start-up reads the same files first and stops on this, naming the file; here it only costs the excludes.
    problems.push(`claudeMdExcludes not read: ${errorMessage(error)}`);
    return { excluded: () => false, problems };
  }
  for (const layer of layers) {
    const value = layer.data['claudeMdExcludes'];
    if (value === undefined) continue;
    const list = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(list) || !list.every((p) => typeof p === 'string' && p.trim() !== '')) {
      problems.push(`${layer.file}: "claudeMdExcludes" must be a list of glob patterns on absolute paths; it is ignored`);
      continue;
    }
    patterns.push(...list.map((p: string) => p.trim()));
  }
  if (patterns.length === 0) return { excluded: () => false, problems };
  const match = picomatch(patterns, { dot: true });
  return { excluded: (absPath) => match(absPath), problems };
}
