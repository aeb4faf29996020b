import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { createRig } from './tui-rig.js';
import { KEYS } from './tui-rig.js';
import { waitFor } from './wait-for.js';

// What an approval answer left behind, as a user finds it: whether the next write asks, what the
// project's settings file holds, what /rules lists.

type Rig = Awaited<ReturnType<typeof createRig>>;

/** Asks the offline model to write `text` to `file`; resolves once it was written or an approval shows. */
async function writeOrAsk(rig: Rig, file: string, text: string): Promise<'written' | 'asked'> {
  await rig.type(`write ${text} to ${file}`);
  await rig.press(KEYS.enter);
  return waitFor(
    async () => {
      rig.store.flushNow();
      if (rig.store.getSnapshot().approvals.length > 0) return 'asked' as const;
      const now = await readFile(join(rig.dir, file), 'utf8').catch(() => '');
      if (now !== `${text}\n`) throw new Error(`${file} holds ${JSON.stringify(now)}, and nothing was asked`);
      return 'written' as const;
    },
    { message: `a write of ${file}, or an approval for it` },
  );
}

/** The next write of `file` runs without an approval. */
export async function expectWrittenUnasked(rig: Rig, file: string, text = 'again'): Promise<void> {
  expect(await writeOrAsk(rig, file, text)).toBe('written');
  await rig.idle();
  expect(rig.store.getSnapshot().approvals).toEqual([]);
}

/** The next write of `file` is asked about again; the ask is left open. */
export async function expectAskedAgain(rig: Rig, file: string, text = 'again'): Promise<void> {
  expect(await writeOrAsk(rig, file, text)).toBe('asked');
  await rig.waitFrame((f) => f.includes('Allow write_file?'), 'the approval');
}

/** The allow rules in the workspace's .cairn/settings.local.json ("always in this project"); undefined when there is no file. */
export async function savedProjectRules(rig: Rig): Promise<string[] | undefined> {
  const text = await readFile(rig.localSettings, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (text === undefined) return undefined;
  return (JSON.parse(text) as { permissions?: { allow?: string[] } }).permissions?.allow ?? [];
}

/** The `Allow:` line /rules prints. */
export async function allowLineOfRules(rig: Rig): Promise<string> {
  const before = rig.store.getSnapshot().items.length;
  await rig.type('/rules');
  await rig.press(KEYS.enter);
  await rig.waitFrame(() => rig.store.getSnapshot().items.length > before, '/rules output');
  const frame = await rig.waitFrame((f) => /Allow: .*$/m.test(f), 'the Allow line of /rules');
  return /Allow: .*$/m.exec(frame)![0];
}
