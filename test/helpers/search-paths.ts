import { afterEach, beforeEach } from 'vitest';
import { RIPGREP_ENV } from '../../src/tools/ripgrep-path.js';

/**
 * The two ways grep, glob and the @ file index search: on the ripgrep binary @vscode/ripgrep ships, and in
 * JavaScript, the fallback where no binary exists (hidden here by pointing CAIRN_RIPGREP at a missing file).
 */
export const SEARCH_PATHS = [
  ['ripgrep', undefined],
  ['javascript', '/nonexistent/cairn-test/rg'],
] as const;

export type SearchPath = (typeof SEARCH_PATHS)[number][0];

/** Sets CAIRN_RIPGREP for each test of the enclosing describe, and puts it back after. */
export function useSearchPath(value: string | undefined): void {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env[RIPGREP_ENV];
    if (value === undefined) delete process.env[RIPGREP_ENV];
    else process.env[RIPGREP_ENV] = value;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[RIPGREP_ENV];
    else process.env[RIPGREP_ENV] = saved;
  });
}
