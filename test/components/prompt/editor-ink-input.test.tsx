import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { renderEditorRig } from './ink-keys.js';

// The bytes a terminal sends, through Ink 6.8's own input parsing.
afterEach(() => cleanup());

describe('editor behind Ink 6.8 useInput', () => {
  it('0x7f (Backspace) deletes left; ESC[3~ also arrives as key.delete', async () => {
    const rig = await renderEditorRig();
    await rig.write('abc');
    await rig.write('\x7f');
    expect(rig.state().text).toBe('ab');
    await rig.write('\x1b[3~');
    const last = rig.events.at(-1)!;
    expect(last.key.delete).toBe(true);
    expect(last.input).toBe('');
  });

  it('Enter submits; kitty Shift+Enter, ESC CR (Meta+Enter), LF (Ctrl+J) and modifyOtherKeys insert newlines', async () => {
    const rig = await renderEditorRig();
    await rig.write('a');
    await rig.write('\x1b[13;2u');
    await rig.write('b');
    await rig.write('\x1b\r');
    await rig.write('c');
    await rig.write('\n');
    await rig.write('d');
    await rig.write('\x1b[27;2;13~');
    await rig.write('e');
    expect(rig.state().text).toBe('a\nb\nc\nd\ne');
    await rig.write('\r');
    expect(rig.submits).toEqual(['a\nb\nc\nd\ne']);
  });

  it('arrows, Home/End and Ctrl keys as raw bytes', async () => {
    const rig = await renderEditorRig();
    await rig.write('hello world');
    await rig.write('\x1b[D');
    await rig.write('\x1b[1;3D'); // Meta+Left
    expect(rig.state().cursor).toBe(6);
    await rig.write('\x01'); // Ctrl+A
    expect(rig.state().cursor).toBe(0);
    await rig.write('\x1b[F'); // End
    await rig.write('\x17'); // Ctrl+W
    expect(rig.state().text).toBe('hello ');
    await rig.write('\x15'); // Ctrl+U
    expect(rig.state().text).toBe('');
  });

  it('a bracketed paste split across chunks, ESC sequences cut in the middle', async () => {
    const rig = await renderEditorRig();
    const lines = Array.from({ length: 7 }, (_, i) => `row ${i}`);
    const bytes = '\x1b[200~' + lines.join('\r') + '\x1b[201~';
    for (const chunk of [bytes.slice(0, 3), bytes.slice(3, 12), bytes.slice(12, bytes.length - 4), bytes.slice(bytes.length - 4)]) {
      rig.writeRaw(chunk);
    }
    await rig.write('!');
    expect(rig.state().text).toBe('[pasted 7 lines]!');
    await rig.write('\r');
    expect(rig.submits).toEqual([lines.join('\n') + '!']);
  });

  it('mouse wheel reports never reach the text', async () => {
    const rig = await renderEditorRig();
    await rig.write('x');
    await rig.write('\x1b[<64;20;10M');
    await rig.write('\x1b[<65;20;10M\x1b[<65;20;10M');
    expect(rig.events.some((e) => e.input.startsWith('[<64'))).toBe(true);
    expect(rig.state().text).toBe('x');
  });

  it('Up/Down recall history through arrow bytes', async () => {
    const rig = await renderEditorRig(['first', 'second']);
    await rig.write('draft');
    await rig.write('\x1b[A');
    await rig.write('\x1b[A');
    expect(rig.state().text).toBe('first');
    await rig.write('\x1b[B');
    await rig.write('\x1b[B');
    expect(rig.state().text).toBe('draft');
  });
});
