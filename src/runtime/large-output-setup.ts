import path from 'node:path';
import { readSettingsLayers, claudeHomeFrom } from '../settings/settings-layers.js';
import { projectDir } from '../session/session-paths.js';
import { cleanOldOutputs, createLargeOutputSaver, DEFAULT_THRESHOLD } from '../tools/large-output.js';
import type { LargeOutputSaver } from '../tools/large-output.js';
import type { PermissionChecker } from '../permissions/types.js';
import { errorMessage } from '../util/error-message.js';

export const DEFAULT_CLEANUP_DAYS = 30;

interface OutputSettings {
  threshold: number;
  cleanupDays: number;
}

/** `largeOutputThreshold` (characters, ≥ 1000) and Claude Code's `cleanupPeriodDays` (≥ 1), the most specific file winning; a bad value is reported naming file and key, and the default used. */
export async function readOutputSettings(at: { workspace: string; cairnHome: string; claudeHome: string }, onProblem: (message: string) => void): Promise<OutputSettings> {
  const out: OutputSettings = { threshold: DEFAULT_THRESHOLD, cleanupDays: DEFAULT_CLEANUP_DAYS };
  for (const layer of (await readSettingsLayers(at)).layers) {
    const t = layer.data['largeOutputThreshold'];
    if (t !== undefined) {
      if (typeof t === 'number' && Number.isInteger(t) && t >= 1000) out.threshold = t;
      else onProblem(`${layer.file}: largeOutputThreshold must be a whole number of characters, at least 1000; using ${out.threshold}`);
    }
    const d = layer.data['cleanupPeriodDays'];
    if (d !== undefined) {
      if (typeof d === 'number' && Number.isInteger(d) && d >= 1) out.cleanupDays = d;
      else onProblem(`${layer.file}: cleanupPeriodDays must be a whole number of days, at least 1; using ${out.cleanupDays}`);
    }
  }
  return out;
}

/**
 * The saver for this session's large tool results, its folder readable by read_file without asking,
 * and the outputs of sessions older than cleanupPeriodDays removed (in the background).
 */
export function setUpLargeOutput(opts: {
  cwd: string;
  cairnHome: string;
  env: NodeJS.ProcessEnv;
  sessionId: string;
  permissions: PermissionChecker;
  now: () => Date;
  onProblem: (message: string) => void;
}): LargeOutputSaver {
  const at = { workspace: opts.cwd, cairnHome: opts.cairnHome, claudeHome: claudeHomeFrom(opts.env) };
  const settings = readOutputSettings(at, opts.onProblem);
  const saver = createLargeOutputSaver({
    sessionDir: path.join(projectDir(opts.cairnHome, opts.cwd), opts.sessionId),
    threshold: async () => (await settings).threshold,
  });
  opts.permissions.allowReadsUnder?.(saver.dir);
  void settings
    .then(async (s) => cleanOldOutputs(path.join(opts.cairnHome, 'projects'), s.cleanupDays, opts.now().getTime()))
    .then((problems) => problems.forEach((p) => opts.onProblem(`could not remove old tool outputs: ${p}`)))
    .catch((err: unknown) => opts.onProblem(`could not clean old tool outputs: ${errorMessage(err)}`));
  return saver;
}
