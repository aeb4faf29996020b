import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

describe('slash palette', () => {
  it('opens on /, filters as you type, Esc closes', async () => {
    rig = await createRig();
    await rig.type('/');
    let f = await rig.waitFrame((f) => f.includes('/help'));
    expect(f).toContain('/mode <mode>');
    expect(f).not.toContain('/theme [dark|light]'); // further down the list than the palette shows at once
    await rig.type('th');
    await rig.waitFrame((f) => f.includes('› /theme [dark|light]'), 'the filtered palette');
    await rig.press(KEYS.backspace, KEYS.backspace);
    await rig.waitFrame((f) => f.includes('/help'), 'the whole list again');
    await rig.type('mo');
    f = await rig.waitFrame((f) => !f.includes('/help'));
    expect(f).toContain('› /mode <mode>');
    expect(f).toContain('/model [name]');
    await rig.press(KEYS.esc);
    f = await rig.waitFrame((f) => !f.includes('/model [name]'));
    expect(f).toContain('> /mo');
  });

  it('after Esc closes it, / typed again (once the box is empty, or after a prompt) opens it again', async () => {
    rig = await createRig();
    await rig.type('/');
    await rig.waitFrame((f) => f.includes('/help'));
    await rig.press(KEYS.esc);
    await rig.waitFrame((f) => !f.includes('/help'));
    await rig.press(KEYS.backspace);
    await rig.waitFrame((f) => !f.includes('> /'));
    await rig.type('/');
    await rig.waitFrame((f) => f.includes('/help'));
  });

  it('Down moves, Tab completes into the prompt', async () => {
    rig = await createRig();
    await rig.type('/mo');
    await rig.waitFrame((f) => f.includes('› /mode'));
    await rig.press(KEYS.down);
    await rig.waitFrame((f) => f.includes('› /model'));
    await rig.press(KEYS.tab);
    await rig.waitFrame((f) => f.includes('> /model ') && !f.includes('› /model'));
    expect(rig.store.getSnapshot().editor.text).toBe('/model ');
  });

  it('Enter runs a command without arguments and completes one that needs them', async () => {
    rig = await createRig();
    await rig.type('/us');
    await rig.waitFrame((f) => f.includes('› /usage'));
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Session: 0 input, 0 output tokens.'));
    expect(rig.store.getSnapshot().editor.text).toBe('');
    await rig.type('/mod');
    await rig.waitFrame((f) => f.includes('› /mode'));
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text === '/mode ');
    await rig.type('plan');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('plan mode'));
    expect(rig.session.mode).toBe('plan');
  });

  it('an unknown command says so and suggests the closest', async () => {
    rig = await createRig();
    await rig.type('/hlep');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('Unknown command /hlep'));
    expect(f).toContain('Did you mean /help?');
  });

  it('/help, /rules, /prompt, /model and /exit print into the transcript or leave', async () => {
    rig = await createRig({ rows: 40 });
    for (const cmd of ['/help', '/rules', '/prompt', '/model other-model', '/theme light']) {
      await rig.type(`${cmd} `);
      await rig.press(KEYS.enter);
    }
    const f = await rig.waitFrame((f) => f.includes('Theme: light.'));
    expect(f).toContain('SYSTEM PROMPT TEXT');
    expect(f).toContain('Allow: (none)');
    expect(f).toContain('To use other-model, restart with');
    expect(rig.store.getSnapshot().themeName).toBe('light');
    await rig.type('/exit ');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.exits.length === 1);
    expect(rig.exits).toEqual([0]);
  });
});
