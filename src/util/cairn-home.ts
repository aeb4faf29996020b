import os from 'node:os';
import path from 'node:path';

/** `$CAIRN_HOME`, else `~/.cairn`: where sessions, settings and runtime files live. */
export function cairnHomeFrom(env: NodeJS.ProcessEnv): string {
  return env['CAIRN_HOME'] || path.join(os.homedir(), '.cairn');
}
