import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

/** Fills the transcript with numbered notices, one line each. */
function fill(r: Rig, from: number, to: number): void {
  for (let i = from; i <= to; i++) r.store.dispatch({ type: 'notice', level: 'info', message: `line ${i}` });
}

describe('transcript scrolling', () => {
  it('follows new output at the bottom; PageUp scrolls back and shows the marker when more arrives', async () => {
    rig = await createRig({ rows: 20 });
    fill(rig, 1, 60);
    let f = await rig.waitFrame((f) => f.includes('line 60'));
    expect(f).not.toContain('line 40');
    await rig.press(KEYS.pageUp);
    f = await rig.waitFrame((f) => !f.includes('line 60'));
    expect(f).toContain('more below');
    fill(rig, 61, 62);
    f = await rig.waitFrame((f) => f.includes('new output below'));
    expect(f).not.toContain('line 62');
    await rig.press(KEYS.end);
    f = await rig.waitFrame((f) => f.includes('line 62'));
    expect(f).not.toContain('below');
  });

  it('Shift+Up/Down by line, Home to the top, PageDown back, mouse wheel', async () => {
    rig = await createRig({ rows: 20 });
    fill(rig, 1, 60);
    await rig.waitFrame((f) => f.includes('line 60'));
    await rig.press(KEYS.shiftUp);
    await rig.waitFrame((f) => f.includes('line 59') && !f.includes('line 60'));
    await rig.press(KEYS.shiftDown);
    await rig.waitFrame((f) => f.includes('line 60'));
    await rig.press(KEYS.home);
    await rig.waitFrame((f) => /ℹ line 1$/m.test(f));
    await rig.press(KEYS.wheelDown);
    await rig.waitFrame((f) => !/ℹ line 1$/m.test(f) && /ℹ line 4$/m.test(f));
    for (let i = 0; i < 10; i++) await rig.press(KEYS.pageDown);
    await rig.waitFrame((f) => f.includes('line 60') && !f.includes('below'));
    await rig.press(KEYS.wheelUp);
    await rig.waitFrame((f) => !f.includes('line 60'));
    // The wheel report never lands in the prompt.
    expect(rig.store.getSnapshot().editor.text).toBe('');
  });

  it('mounts only the visible lines however long the session', async () => {
    rig = await createRig({ rows: 20 });
    fill(rig, 1, 3000);
    const f = await rig.waitFrame((f) => f.includes('line 3000'));
    expect(f.split('\n').length).toBe(19);
    // Following the bottom, only a window of the last items is laid out (400-800), not all 3,000.
    expect(rig.deps.view.total).toBeGreaterThan(400);
    expect(rig.deps.view.total).toBeLessThan(2 * 800 + 10);
  });
});
