import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGlobTool, MAX_GLOB_RESULTS } from '../../../src/tools/glob.js';
import { RIPGREP_ENV } from '../../../src/tools/ripgrep-path.js';

async function filesAged(ages: Record<string, number>): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-newest-')));
  const now = Date.now() / 1000;
  for (const [name, age] of Object.entries(ages)) {
    await fs.writeFile(path.join(dir, name), name);
    await fs.utimes(path.join(dir, name), now - age, now - age);
  }
  return dir;
}

describe('glob past its cap', () => {
  it('ripgrep and the JavaScript walk show the same newest files when ties straddle the cut', { timeout: 60_000 }, async () => {
    const ages: Record<string, number> = {};
    // f000..f179 newest, one second apart; then 60 files of one time across the cut at 200 (f180..f239); then older ones.
    for (let i = 0; i < MAX_GLOB_RESULTS + 50; i++) ages[`f${String(i).padStart(3, '0')}.ts`] = i < 180 ? i + 1 : i < 240 ? 500 : 1000 + i;
    const dir = await filesAged(ages);
    const run = async (): Promise<string> => (await createGlobTool().call({ pattern: '*.ts' }, { cwd: dir, signal: new AbortController().signal })).content;
    const withRg = await run();
    const saved = process.env[RIPGREP_ENV];
    process.env[RIPGREP_ENV] = '';
    let withJs: string;
    try {
      withJs = await run();
    } finally {
      if (saved === undefined) delete process.env[RIPGREP_ENV];
      else process.env[RIPGREP_ENV] = saved;
    }
    expect(withRg).toBe(withJs);
    expect(withRg).toContain(`(Showing the ${MAX_GLOB_RESULTS} newest of ${MAX_GLOB_RESULTS + 50} matches.`);
    // Newest first; of the tied group, the first 20 by path make the cut.
    const shown = withRg.split('\n\n')[0]!.split('\n');
    expect(shown[0]).toBe('f000.ts');
    expect(shown.slice(-21)).toEqual(['f179.ts', ...Array.from({ length: 20 }, (_, k) => `f${180 + k}.ts`)]);
  });
});
