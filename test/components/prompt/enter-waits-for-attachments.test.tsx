import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../../helpers/tui-rig.js';

let rig: Awaited<ReturnType<typeof createRig>> | undefined;
afterEach(() => rig?.cleanup());

describe('Enter while a dropped file is still becoming a chip', () => {
  it('does not send the prompt without it: the draft stays and a notice says why; Enter once it is there sends', async () => {
    rig = await createRig({ rows: 30 });
    // What attachDroppedFiles marks while it prepares a dropped screenshot (a 4000x3000 PNG takes ~200 ms).
    rig.deps.attaching.add('/home/me/Desktop/shot.png#1');
    await rig.type('what is wrong here?');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Still attaching shot.png: press Enter again once its chip shows.'));
    expect(rig.frame()).toContain('> what is wrong here?');
    expect(rig.session.busy).toBe(false);

    rig.deps.attaching.clear();
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('You said: what is wrong here?'), 'the prompt went once the file was attached');
  });
});
