import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { applyEditorKey } from '../../../components/keys/editor-keys.js';
import { emptyEditor, insertAttachment, insertText, type EditorState } from '../../../components/prompt/editor.js';
import type { ImageBlock } from '../../../src/messages.js';

const NONE: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
  home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
  backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
};
const image: ImageBlock = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' }, name: 'shot.png', width: 1280, height: 800, bytes: 8 };
const chip = '[image shot.png · 1280x800]';

function key(state: EditorState, input: string, flags: Partial<Key> = {}, ctx: { takesDroppedFiles?: boolean } = {}) {
  return applyEditorKey(state, input, { ...NONE, ...flags }, { history: [], ...ctx });
}

describe('attachment chips in the draft', () => {
  it('a chip is one unit: a single Backspace takes it out, and nothing is attached any more', () => {
    const withChip = insertAttachment(insertText(emptyEditor(), 'see'), chip, image);
    expect(withChip.text).toBe(`see ${chip} `);
    const after = key(withChip, '', { backspace: true }, {}).state;
    expect(after.text).toBe('see ');
    expect(after.pastes).toEqual([]);
    expect(key(after, '\r', { return: true }).attachments).toBeUndefined();
  });

  it('Enter sends the text with the chip and the attachment beside it, not folded like a paste', () => {
    const draft = insertText(insertAttachment(emptyEditor(), chip, image), 'what is this?');
    const sent = key(draft, '\r', { return: true });
    expect(sent.submit).toBe(`${chip} what is this?`);
    expect(sent.attachments).toEqual([image]);
    expect(sent.shown).toBeUndefined();
  });

  it('the same image twice gets two chips, told apart', () => {
    const twice = insertAttachment(insertAttachment(emptyEditor(), chip, image), chip, image);
    expect(twice.text).toBe(`${chip} [image shot.png · 1280x800 #2] `);
    expect(key(twice, '\r', { return: true }).attachments).toHaveLength(2);
  });

  it('a bracketed paste of only image paths comes back as dropped files (main prompt), as text elsewhere', () => {
    const paste = "\x1b[200~'/home/me/my shot.png'\x1b[201~";
    const dropped = key(emptyEditor(), paste, {}, { takesDroppedFiles: true });
    expect(dropped.dropped).toEqual({ paths: ['/home/me/my shot.png'], pasted: "'/home/me/my shot.png'" });
    expect(dropped.state.text).toBe('');
    expect(key(emptyEditor(), paste).state.text).toBe("'/home/me/my shot.png'");
    expect(key(emptyEditor(), '\x1b[200~look at /home/me/shot.png\x1b[201~', {}, { takesDroppedFiles: true }).state.text).toBe('look at /home/me/shot.png');
  });
});
