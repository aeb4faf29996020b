import { SESSION_PROC_ENV } from './session-processes.js';

/**
 * The environment the model's commands run with: the session's, marked as cairn's (CAIRN=1 and the
 * session's process marker), without CDPATH, so `cd sub` always means the folder `sub` where the
 * command runs, as the permission check reads it (src/permissions/bash/cd-prelude.ts).
 */
export function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { CDPATH: _cdpath, ...rest } = env;
  return { ...rest, CAIRN: '1', ...SESSION_PROC_ENV };
}
