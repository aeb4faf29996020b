import { afterEach, describe, expect, it } from 'vitest';
import { keyLabel } from '../../../components/keys/key-help.js';
import { KEYMAP } from '../../../components/keys/keymap.js';
import { createRig, KEYS } from '../../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

async function help(r: Rig): Promise<string> {
  await r.type('/help');
  await r.press(KEYS.enter);
  return r.waitFrame((f) => f.includes('Anywhere:'));
}

describe('/help', () => {
  it('lists every binding of the key table, the approval answers, Shift+Enter and # memory notes', async () => {
    rig = await createRig({ columns: 120, rows: 160 });
    const f = await help(rig);
    for (const binding of Object.values(KEYMAP)) {
      if (!binding.help) continue;
      for (const spec of binding.keys) expect(f).toContain(keyLabel(spec));
      for (const h of binding.help) expect(f).toContain(h.does);
    }
    // The answers to an approval come first in its section, each with its key.
    expect(f).toMatch(/When cairn asks to run something:\n +y +yes \(once\)\n +a +yes, and don't ask again/);
    expect(f).toMatch(/Shift\+Enter[^\n]*\n? *new line/);
    expect(f).toMatch(/# <note> +save the note to memory/);
    expect(f).toMatch(/Esc +no, and stop the turn/);
  });

  it('the keys it names do what it says, through the dispatcher: Shift+Enter starts a new line', async () => {
    rig = await createRig();
    await rig.type('first');
    await rig.press('\x1b[13;2u'); // Shift+Enter (kitty keyboard protocol)
    await rig.type('second');
    await rig.waitFrame(() => rig!.store.getSnapshot().editor.text === 'first\nsecond');
  });
});

describe('/theme', () => {
  it('with no argument lists the themes and the one in use', async () => {
    rig = await createRig();
    await rig.type('/theme');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('Themes:'));
    expect(f).toContain('Themes: dark (in use), light');
    expect(f).not.toContain('Unknown theme');
    await rig.type('/theme light');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => rig!.store.getSnapshot().themeName === 'light');
    await rig.type('/theme');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Themes: dark, light (in use)'));
  });
});
