import { afterEach, describe, expect, it } from 'vitest';
import { textWidth } from '../../components/theme/ansi.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

function lines(r: Rig): string[] {
  return (r.app.lastFrame() ?? '').split('\n');
}

describe('layout', () => {
  it('fills rows - 1 lines with header, transcript, prompt and status bar', async () => {
    rig = await createRig({ columns: 80, rows: 24 });
    const f = rig.frame();
    expect(lines(rig)).toHaveLength(23);
    expect(f.split('\n')[0]).toContain('cairn · offline-scripted-1 (offline) · default');
    expect(f.split('\n')[22]).toContain('⏵ default');
  });

  it('at 40x10 drops the header, keeps every line within 40 columns and 9 rows', async () => {
    rig = await createRig({ columns: 40, rows: 10, files: { 'c.txt': 'old\n' } });
    expect(rig.frame()).not.toContain('offline-scripted-1');
    await rig.type('write a long line of text that will need wrapping to c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow write_file?') || f.includes('(y)') || f.includes('(n)'));
    expect(rig.widest()).toBeLessThanOrEqual(40);
    expect(lines(rig).length).toBeLessThanOrEqual(9);
    rig.settle();
    await rig.press('y');
    await rig.idle();
    await rig.type('/');
    await rig.waitFrame((f) => f.includes('/help'));
    expect(rig.widest()).toBeLessThanOrEqual(40);
    expect(lines(rig).length).toBeLessThanOrEqual(9);
    for (const l of lines(rig)) expect(textWidth(l)).toBeLessThanOrEqual(40);
  });

  it('at 40x10 an approval shows its title, every choice, the selection and the key hint; the transcript gives way', async () => {
    rig = await createRig({ columns: 40, rows: 10 });
    await rig.type('run touch made.txt');
    await rig.press(KEYS.enter);
    let f = await rig.waitFrame((f) => f.includes('Allow bash?'));
    for (const key of ['(y)', '(a)', '(p)', '(n)', 'y/a/p/n']) expect(f).toContain(key);
    expect(f).toContain('› Yes (y)');
    expect(lines(rig).length).toBeLessThanOrEqual(9);
    expect(rig.widest()).toBeLessThanOrEqual(40);
    rig.settle();
    await rig.press(KEYS.down);
    f = await rig.waitFrame((f) => /› Yes, and don.*\(a\)/.test(f));
    expect(f).toContain('y/a/p/n');
    expect(f).toContain('Allow bash?');
    await rig.press(KEYS.down, KEYS.down);
    f = await rig.waitFrame((f) => f.includes('type what to do'));
    expect(f).toContain('y/a/p/n');
    await rig.type('no');
    await rig.waitFrame((f) => f.includes('no█'));
    expect(lines(rig).length).toBeLessThanOrEqual(9);
  });

  it('at 40x10 an approval with five choices still shows them all, the prompt giving up its border', async () => {
    // A write into a folder: the workspace's rule, and the folder's as the fifth choice.
    rig = await createRig({ columns: 40, rows: 10 });
    await rig.type('write hello to src/c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow write_file?'));
    await rig.type('my draft');
    const f = await rig.waitFrame((f) => f.includes('> my draft'));
    for (const key of ['› Yes (y)', '(a)', '(p)', '(f)', '(n)', 'y/a/p/f/n']) expect(f).toContain(key);
    expect(lines(rig).length).toBeLessThanOrEqual(9);
  });
});
