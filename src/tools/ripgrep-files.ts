import { runRipgrep } from './ripgrep-run.js';
import { relFromRg, rgWalkArgs, type RgWalkOptions } from './ripgrep-walk.js';

export interface RgFileList {
  /** Paths relative to the root, `/`-separated, in ripgrep's order (the walk's order when sorted). */
  readonly files: string[];
  /** Symlinks passed over (when asked for), relative like files. */
  readonly symlinks: string[];
  readonly interrupted: boolean;
}

/**
 * The files under root as `rg --files` walks them (rgWalkArgs). `each` sees every path as it arrives and
 * returns 'skip' to leave it out or 'stop' to end the walk there (a size cap). Undefined when ripgrep failed:
 * the caller walks in JavaScript instead.
 */
export async function ripgrepFiles(
  bin: string,
  root: string,
  walk: RgWalkOptions,
  signal: AbortSignal,
  each: (rel: string) => 'keep' | 'skip' | 'stop' = () => 'keep',
): Promise<RgFileList | undefined> {
  const run = runRipgrep(bin, [...rgWalkArgs(walk), '--files', '--null', '--', '.'], { cwd: root, signal, withValue: false });
  const files: string[] = [];
  reading: for await (const batch of run.batches()) {
    for (const record of batch) {
      const rel = relFromRg(record.path);
      const verdict = each(rel);
      if (verdict === 'skip') continue;
      files.push(rel);
      if (verdict === 'stop') {
        run.stop();
        break reading;
      }
    }
  }
  const outcome = await run.done;
  if (signal.aborted) return { files, symlinks: [], interrupted: true };
  if (outcome.code === -1 || (outcome.code === 2 && outcome.errors.length > 0)) return undefined;
  return { files, symlinks: outcome.symlinks.map(relFromRg), interrupted: false };
}
