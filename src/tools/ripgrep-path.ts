import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * Where ripgrep comes from: this variable when set (a path, or a command name looked up on PATH such as `rg`;
 * empty, or a path that does not exist, turns ripgrep off and the searches run in JavaScript), else the binary
 * `@vscode/ripgrep` ships for this platform in its per-platform package (no download, no install script).
 */
export const RIPGREP_ENV = 'CAIRN_RIPGREP';

const found = new Map<string, Promise<string | undefined>>();

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string, envPath: string): string | undefined {
  if (name.includes('/') || name.includes('\\')) return executable(name) ? path.resolve(name) : undefined;
  const suffixes = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of envPath.split(path.delimiter)) {
    if (dir === '') continue;
    for (const suffix of suffixes) {
      const candidate = path.join(dir, name + suffix);
      if (executable(candidate)) return candidate;
    }
  }
  return undefined;
}

async function bundled(): Promise<string | undefined> {
  try {
    // Throws when no package exists for this platform and architecture: then the JavaScript search is used.
    const { rgPath } = await import('@vscode/ripgrep');
    return executable(rgPath) ? rgPath : undefined;
  } catch {
    return undefined;
  }
}

/** The ripgrep binary to run, or undefined when there is none (the callers then search in JavaScript). */
export function ripgrepPath(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  const configured = env[RIPGREP_ENV];
  // NUL cannot be in an environment value, so it stands for "not set".
  const key = configured ?? '\0';
  let pending = found.get(key);
  if (!pending) {
    pending = configured === undefined ? bundled() : Promise.resolve(configured === '' ? undefined : onPath(configured, env.PATH ?? ''));
    found.set(key, pending);
  }
  return pending;
}
