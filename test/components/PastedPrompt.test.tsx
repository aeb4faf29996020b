import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

const paste = (text: string): string => `\x1b[200~${text}\x1b[201~`;
const pastedLines = Array.from({ length: 200 }, (_, i) => `pasted line ${i + 1}`).join('\n');

describe('a prompt sent with a large paste', () => {
  it('shows the placeholder in the transcript, as in the editor, with a toggle that unfolds it', async () => {
    rig = await createRig({ rows: 30 });
    await rig.type('explain ');
    await rig.press(paste(pastedLines));
    await rig.waitFrame((f) => f.includes('> explain [pasted 200 lines]'));
    await rig.press(KEYS.enter);
    await rig.idle();
    let f = await rig.waitFrame((f) => f.includes('› explain [pasted 200 lines]'));
    // (The offline model's reply quotes the prompt's start: look further in.)
    expect(f).not.toContain('pasted line 150');
    expect(f).toContain('▸ pasted text folded');
    // The model got all of it.
    const sent = rig.session.messages.find((m) => m.role === 'user');
    expect(JSON.stringify(sent?.content)).toContain('pasted line 200');

    await rig.press(KEYS.tab);
    await rig.waitFrame(() => rig!.store.getSnapshot().selectedId !== undefined);
    // The newest card is the prompt itself: the offline reply has no cards.
    await rig.press(' ');
    await rig.press(KEYS.home);
    f = await rig.waitFrame((f) => f.includes('pasted line 20'));
    expect(f).not.toContain('[pasted 200 lines]');
    await rig.press(' ');
    f = await rig.waitFrame((f) => !f.includes('pasted line 20'));
    expect(f).toContain('› explain [pasted 200 lines]');
  });

  it('a short prompt without pastes is shown as sent, with no toggle', async () => {
    rig = await createRig({ rows: 30 });
    await rig.type('hello there');
    await rig.press(KEYS.enter);
    await rig.idle();
    const f = await rig.waitFrame((f) => f.includes('› hello there'));
    expect(f).not.toContain('pasted text');
  });
});
