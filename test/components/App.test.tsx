import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

describe('App', () => {
  it('runs a prompt and shows the tool card and the answer', async () => {
    rig = await createRig({ files: { 'a.txt': 'alpha\n' } });
    await rig.type('read a.txt');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('Done.'));
    expect(f).toContain('› read a.txt');
    expect(f).toMatch(/✓ read_file a\.txt\s+lines 1-1 of 1/);
  });
});
