import { describe, expect, it } from 'vitest';
import { parseLine } from '../../../components/terminal/cell-grid.js';
import { detectImageProtocol, kittyDelete, kittyPlaceholderRows, kittyTransmit, thumbnailCells } from '../../../components/terminal/kitty-images.js';

// The bytes kitty's graphics protocol documents (https://sw.kovidgoyal.net/kitty/graphics-protocol/):
// APC `ESC _ G <keys> ; <base64> ESC \`, chunks of at most 4096 base64 bytes with m=1 on all but the
// last, and Unicode placeholders U+10EEEE + row diacritic + column diacritic, the id as the colour.
describe('kitty graphics escapes', () => {
  it('a small PNG goes in one escape: transmit and place virtually (U=1), PNG, quiet', () => {
    expect(kittyTransmit(7, 'iVBORw0KGgo=', 12, 6)).toBe('\x1b_Ga=T,f=100,t=d,U=1,i=7,c=12,r=6,q=2;iVBORw0KGgo=\x1b\\');
  });

  it('a larger one in 4096-byte chunks: the keys on the first, m=1 until the last (m=0)', () => {
    const data = 'A'.repeat(4096) + 'B'.repeat(4096) + 'C'.repeat(10);
    expect(kittyTransmit(3, data, 4, 2)).toBe(
      `\x1b_Ga=T,f=100,t=d,U=1,i=3,c=4,r=2,q=2,m=1;${'A'.repeat(4096)}\x1b\\` + `\x1b_Gm=1;${'B'.repeat(4096)}\x1b\\` + '\x1b_Gm=0;CCCCCCCCCC\x1b\\',
    );
  });

  it('deleting frees the image and its placements', () => {
    expect(kittyDelete(9)).toBe('\x1b_Ga=d,d=I,i=9,q=2\x1b\\');
  });

  it('placeholder rows: every cell U+10EEEE with its row and column marks, the id as a 256-colour foreground', () => {
    const rows = kittyPlaceholderRows(5, 3, 2);
    const cell = (r: number, c: number): string => String.fromCodePoint(0x10eeee, [0x0305, 0x030d, 0x030e][r]!, [0x0305, 0x030d, 0x030e][c]!);
    expect(rows).toEqual([`\x1b[38;5;5m${cell(0, 0)}${cell(0, 1)}${cell(0, 2)}\x1b[39m`, `\x1b[38;5;5m${cell(1, 0)}${cell(1, 1)}${cell(1, 2)}\x1b[39m`]);
  });

  it('the frame writer sees each placeholder as one cell, so the rows diff and scroll like text', () => {
    const row = parseLine(kittyPlaceholderRows(5, 10, 1)[0]!, 0, 80);
    expect(row.cells).toHaveLength(10);
    expect(row.cells.every((c) => c.w === 1)).toBe(true);
  });

  it('is drawn only in kitty, and not through tmux', () => {
    expect(detectImageProtocol({ TERM: 'xterm-kitty' })).toBe('kitty');
    expect(detectImageProtocol({ TERM: 'xterm-256color', KITTY_WINDOW_ID: '1' })).toBe('kitty');
    expect(detectImageProtocol({ TERM: 'xterm-kitty', TMUX: '/tmp/tmux-0/default,1,0' })).toBeUndefined();
    expect(detectImageProtocol({ TERM_PROGRAM: 'iTerm.app' })).toBeUndefined();
    expect(detectImageProtocol({ TERM: 'xterm-256color' })).toBeUndefined();
  });

  it('a thumbnail keeps the picture shape in cells (about twice as tall as wide), within the width', () => {
    expect(thumbnailCells(1280, 800, 6, 100)).toEqual({ columns: 19, rows: 6 });
    expect(thumbnailCells(400, 1600, 6, 100)).toEqual({ columns: 3, rows: 6 });
    expect(thumbnailCells(4000, 100, 6, 20)).toEqual({ columns: 20, rows: 6 });
  });
});
