import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * cairn's own package folder, found from this module's location (src/, dist/src/ or the bundle in
 * dist/bundle/), so files shipped beside the code are found from any directory and after
 * `npm install -g`.
 */
export function cairnPackageRoot(from: string = fileURLToPath(import.meta.url)): string | undefined {
  let dir = path.dirname(from);
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && packageName(pkg) === 'cairn') return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function packageName(file: string): string | undefined {
  try {
    const name = (JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined; // not a package.json cairn can read: keep looking further up
  }
}
