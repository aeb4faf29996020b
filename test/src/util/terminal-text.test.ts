import { describe, expect, it } from 'vitest';
import { stripTerminalControls } from '../../../src/util/terminal-text.js';

describe('stripTerminalControls', () => {
  it('drops a title change (OSC) and a screen clear (CSI) whole, keeping the words around them', () => {
    expect(stripTerminalControls('a\x1b]0;pwned\x07b\x1b[2Jc')).toBe('abc');
    expect(stripTerminalControls('a\x1b]52;c;aGk=\x1b\\b')).toBe('ab');
  });

  it('drops DCS/APC strings, 8-bit CSI and OSC, lone escapes and other C0/C1, keeps newline and tab', () => {
    expect(stripTerminalControls('x\x1bP1$r0m\x1b\\y\x1b_hidden\x1b\\z')).toBe('xyz');
    expect(stripTerminalControls('x\x9b2Jy\x9d0;t\x07z')).toBe('xyz');
    expect(stripTerminalControls('x\x1bcy\x1b(Bz\x08\x00\r')).toBe('xyz');
    expect(stripTerminalControls('line 1\n\tline 2\r\n')).toBe('line 1\n\tline 2\n');
  });

  it('an unterminated OSC loses only its introducer: the rest stays readable', () => {
    expect(stripTerminalControls('before \x1b]0;title and after')).toBe('before 0;title and after');
  });

  it('plain text, CJK and emoji come back unchanged', () => {
    const text = 'plain 中文 🎉 text [2J without escape';
    expect(stripTerminalControls(text)).toBe(text);
  });
});
