import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../../helpers/tui-rig.js';

let rig: Awaited<ReturnType<typeof createRig>> | undefined;
afterEach(() => rig?.cleanup());

describe('an @ mention typed faster than the screen', () => {
  it('Tab in the same read as the text completes from that text, not from what the list showed a moment before', async () => {
    rig = await createRig({
      rows: 30,
      files: { 'src/alpha-beta.ts': 'a\n', 'src/alpha-gamma.ts': 'g\n', 'docs/alpha-notes.md': 'n\n' },
    });
    await rig.type('explain @');
    await rig.waitFrame((f) => f.includes('src/alpha-beta.ts'), 'the file list');
    await rig.type('alpha');
    await rig.waitFrame((f) => /› .*alpha/.test(f), 'the matches for "alpha"');
    // "gam" and Tab arrive in one read (fast typing, a busy terminal, ssh): the Tab must take the
    // match for "alphagam", not the first match for "alpha" still on screen.
    await rig.press(`gam${KEYS.tab}`);
    await rig.waitFrame((f) => f.includes('> explain @src/alpha-gamma.ts'), 'the mention completed from the whole text');
    expect(rig.frame()).not.toContain('alphagam');
  });
});
