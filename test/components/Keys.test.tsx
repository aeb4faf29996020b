import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

describe('keys', () => {
  it('Shift+Tab cycles default -> acceptEdits -> plan -> default', async () => {
    rig = await createRig();
    await rig.press(KEYS.shiftTab);
    await rig.waitFrame((f) => f.includes('⏵ accept edits'));
    expect(rig.session.mode).toBe('acceptEdits');
    await rig.press(KEYS.shiftTab);
    await rig.waitFrame((f) => f.includes('⏵ plan mode'));
    await rig.press(KEYS.shiftTab);
    await rig.waitFrame((f) => f.includes('⏵ default'));
    expect(rig.session.mode).toBe('default');
  });

  it('Shift+Tab includes bypassPermissions only when the session started in it', async () => {
    rig = await createRig({ mode: 'bypassPermissions' });
    await rig.press(KEYS.shiftTab);
    await rig.waitFrame(() => rig!.session.mode === 'default');
    await rig.press(KEYS.shiftTab, KEYS.shiftTab, KEYS.shiftTab);
    await rig.waitFrame((f) => f.includes('⏵ bypass permissions'));
  });

  it('Esc interrupts the running turn; a prompt queued meanwhile comes back into the editor and does not run', async () => {
    rig = await createRig({ rows: 30 });
    await rig.type('stream 400 at 50/s');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => /responding \d/.test(f));
    await rig.type('list');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('queued: list'));
    await rig.press(KEYS.esc);
    await rig.waitFrame((f) => f.includes('Interrupted'));
    await rig.idle();
    const f = await rig.waitFrame((f) => f.includes('> list') && !f.includes('queued: list'));
    expect(f).not.toContain('› list');
    expect(rig.session.queued).toEqual([]);
    expect(rig.store.getSnapshot().editor.text).toBe('list');
  });

  it('Ctrl+C aborts a running turn, then asks for a second press to exit', async () => {
    rig = await createRig();
    await rig.type('stream 400 at 50/s');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.session.busy);
    await rig.press(KEYS.ctrlC);
    await rig.idle();
    expect(rig.exits).toEqual([]);
    await rig.press(KEYS.ctrlC);
    await rig.waitFrame((f) => f.includes('Press Ctrl+C again to exit'));
    expect(rig.exits).toEqual([]);
    await rig.press(KEYS.ctrlC);
    await rig.waitFrame(() => rig!.exits.length === 1);
  });

  it('another key disarms Ctrl+C; Ctrl+D exits only on an empty prompt', async () => {
    rig = await createRig();
    await rig.press(KEYS.ctrlC);
    await rig.waitFrame((f) => f.includes('Press Ctrl+C again'));
    await rig.type('x');
    await rig.waitFrame((f) => !f.includes('Press Ctrl+C again'));
    await rig.press(KEYS.ctrlD);
    expect(rig.exits).toEqual([]);
    await rig.press(KEYS.backspace);
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text === '');
    await rig.press(KEYS.ctrlD);
    await rig.waitFrame(() => rig!.exits.length === 1);
  });

  it('keys that arrive in one read are each applied, in order', async () => {
    rig = await createRig();
    await rig.type('hello world');
    await rig.press('\x7f\x7f\x7f');
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text === 'hello wo');
    await rig.press('\x01'); // Ctrl+A: to the start, so Ctrl+U alone would delete nothing
    await rig.press('\x05\x15'); // Ctrl+E then Ctrl+U
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text === '');
    await rig.press('ab\x7fc\r');
    await rig.waitFrame((f) => f.includes('› ac'));
  });

  it('a word and the Enter typed after it, arriving in one read, send the word; a multi-line chunk stays text', async () => {
    rig = await createRig();
    await rig.press('read a.txt\r');
    await rig.waitFrame((f) => f.includes('› read a.txt'));
    await rig.idle();
    await rig.press('line one\rline two');
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text.includes('line two'));
    expect(rig.store.getSnapshot().items.filter((i) => i.kind === 'user')).toHaveLength(1);
  });

  it('Delete deletes forward, Backspace back', async () => {
    rig = await createRig();
    await rig.type('abcd');
    await rig.press('\x1b[D', '\x1b[D');
    await rig.press('\x1b[3~');
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text === 'abd');
    await rig.press(KEYS.backspace);
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text === 'ad');
  });
});
