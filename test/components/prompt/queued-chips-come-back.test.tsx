import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../../helpers/tui-rig.js';
import { screenshotPng } from '../../helpers/image-files.js';

let rig: Awaited<ReturnType<typeof createRig>> | undefined;
afterEach(() => rig?.cleanup());

const chip = '[image shot.png · 640x400]';

describe('a queued prompt taken back into the draft keeps its attachments', () => {
  it('Esc during a turn brings the queued prompt back with its chip, which is still one unit and is sent again with the image', async () => {
    // The offline model streams slowly enough that the second prompt waits in the queue.
    rig = await createRig({ rows: 30, deltaDelayMs: 40 });
    const file = path.join(rig.dir, 'shot.png');
    await fs.writeFile(file, await screenshotPng(640, 400));

    await rig.type('tell me a long story');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.session.busy, 'the first turn runs');

    await rig.press(`\x1b[200~${file}\x1b[201~`);
    await rig.waitFrame((f) => f.includes(chip), 'the dropped file became a chip');
    await rig.type('what is wrong here?');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.session.queued.length === 1, 'the prompt waits for the turn');
    expect(rig.session.queued[0]).toBe(`${chip} what is wrong here?`);

    await rig.press(KEYS.esc);
    await rig.idle();
    await rig.waitFrame((f) => f.includes(`> ${chip} what is wrong here?`), 'the queued prompt is back in the draft');
    const draft = rig.store.getSnapshot().editor;
    expect(draft.pastes.map((p) => [p.placeholder, p.attachment?.type === 'image' ? p.attachment.name : undefined])).toEqual([[`${chip} `, 'shot.png']]);

    // Sent again, the image goes with it: the offline model names it.
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('I received image shot.png · 640x400'), 'the image was sent again');
    await rig.idle();
  });

  it('Backspace on the restored chip takes it out whole, and then nothing is attached', async () => {
    rig = await createRig({ rows: 30, deltaDelayMs: 40 });
    const file = path.join(rig.dir, 'shot.png');
    await fs.writeFile(file, await screenshotPng(640, 400));
    await rig.type('tell me a long story');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.session.busy, 'the first turn runs');
    await rig.type('see ');
    await rig.press(`\x1b[200~${file}\x1b[201~`);
    await rig.waitFrame((f) => f.includes(`see ${chip}`), 'the dropped file became a chip');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.session.queued.length === 1, 'the prompt waits for the turn');

    await rig.press(KEYS.esc);
    await rig.idle();
    await rig.waitFrame((f) => f.includes(`> see ${chip}`), 'the queued prompt is back in the draft');
    await rig.press(KEYS.backspace);
    await rig.waitFrame((f) => f.includes('> see') && !f.includes(chip), 'one Backspace took the chip out');
    expect(rig.store.getSnapshot().editor.pastes).toEqual([]);
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('You said: see'), 'the prompt went');
    expect(rig.frame()).not.toContain('I received image');
  });
});
