import { describe, expect, it } from 'vitest';
import { emptyParseCache, graphemeInfo, parseFrame, parseLine, type Row } from '../../../components/terminal/cell-grid.js';
import { cursorMove } from '../../../components/terminal/cursor-moves.js';
import { createFrameWriter } from '../../../components/terminal/frame-writer.js';
import { createByteCounter } from '../../../components/terminal/byte-counter.js';
import { BOLD, DIM, UNDERLINE, applySgr, internStyle, sgrTransition, styleOf } from '../../../components/terminal/sgr.js';

const chars = (row: Row) => row.cells.map((c) => c.ch).join('|');
const sgr = (params: string, from = 0) => applySgr(from, params);

describe('SGR styles', () => {
  it('parses flags, 16/256/truecolor in both ; and : forms, and resets', () => {
    expect(styleOf(sgr('1;4;31;44'))).toEqual({ fg: '31', bg: '44', flags: BOLD | UNDERLINE });
    expect(sgr('38:2::1:2:3')).toBe(sgr('38;2;1;2;3'));
    expect(sgr('38:5:200')).toBe(sgr('38;5;200'));
    expect(styleOf(sgr('48;5;17;1'))).toEqual({ fg: '', bg: '48;5;17', flags: BOLD });
    expect(sgr('0', sgr('1;31'))).toBe(0);
    expect(sgr('', sgr('1;31'))).toBe(0);
    expect(sgr('22', sgr('1;2;31'))).toBe(sgr('31'));
    expect(sgr('4:0', sgr('4'))).toBe(0);
    expect(sgr('39;49', sgr('91;101'))).toBe(0);
    // A malformed extended colour is ignored without eating the rest.
    expect(styleOf(sgr('38;5;999'))).toEqual({ fg: '', bg: '', flags: 0 });
  });

  it('emits the shortest transition', () => {
    const boldRed = internStyle('31', '', BOLD);
    expect(sgrTransition(boldRed, internStyle('32', '', BOLD))).toBe('\x1b[32m');
    expect(sgrTransition(internStyle('', '', BOLD), internStyle('', '', DIM))).toBe('\x1b[0;2m');
    expect(sgrTransition(internStyle('31', '', BOLD), internStyle('31', '', DIM))).toBe('\x1b[22;2m');
    expect(sgrTransition(boldRed, 0)).toBe('\x1b[m');
    expect(sgrTransition(boldRed, boldRed)).toBe('');
    expect(sgrTransition(-1, boldRed)).toBe('\x1b[0;1;31m');
    // Turning off many attributes at once is cheaper as a reset.
    expect(sgrTransition(internStyle('38;5;1', '48;5;2', BOLD | UNDERLINE), internStyle('33', '', 0))).toBe('\x1b[0;33m');
  });
});

describe('parsing lines into cells', () => {
  it('applies styles per cell and carries the open style into the next line', () => {
    const rows = parseFrame('a\x1b[1;31mb\nc\x1b[0md', 10, 3);
    const [first, second, third] = rows;
    expect(first?.cells.map((c) => c.s)).toEqual([0, sgr('1;31')]);
    expect(second?.cells.map((c) => c.s)).toEqual([sgr('1;31'), 0]);
    expect(third?.cells).toEqual([]);
  });

  it('re-uses the rows of lines that stayed or moved, and re-parses a line whose carried style changed', () => {
    const cache = emptyParseCache();
    const first = parseFrame(['one', 'two', 'three'], 10, 4, cache);
    // Unchanged lines keep their rows; lines that moved up by one are found among the previous rows.
    const same = parseFrame(['one', 'two', 'three!'], 10, 4, cache);
    expect(same[0]).toBe(first[0]);
    expect(same[1]).toBe(first[1]);
    expect(same[2]).not.toBe(first[2]);
    const moved = parseFrame(['two', 'three!', 'four'], 10, 4, cache);
    expect(moved[0]).toBe(first[1]);
    expect(moved[1]).toBe(same[2]);
    // 'two' now follows a line that leaves bold open: same text, different cells.
    const restyled = parseFrame(['\x1b[1mx', 'two', 'three!'], 10, 4, cache);
    expect(restyled[1]).not.toBe(first[1]);
    expect(restyled[1]?.cells.map((c) => c.s)).toEqual([sgr('1'), sgr('1'), sgr('1')]);
    expect(restyled[3]?.cells).toEqual([]);
  });

  it('gives wide characters two cells and joins combining marks, even across SGR', () => {
    const row = parseLine('中x😀e\x1b[31m\u0301!', 0, 20);
    expect(chars(row)).toBe('中||x|😀||e\u0301|!');
    expect(row.cells.map((c) => c.w)).toEqual([2, 0, 1, 2, 0, 1, 1]);
    expect(row.cells[5]?.s).toBe(0);
  });

  it('clips at the last column, blanking a wide character that does not fit', () => {
    const clipped = parseLine('abcd\x1b[41m中', 0, 5);
    expect(chars(clipped)).toBe('a|b|c|d| ');
    expect(clipped.cells[4]?.s).toBe(sgr('41'));
    expect(chars(parseLine('abcdefgh', 0, 5))).toBe('a|b|c|d|e');
    // SGR after the clip still counts for the next line.
    expect(parseLine('abcdefgh\x1b[32m', 0, 5).endStyle).toBe(sgr('32'));
  });

  it('expands tabs, drops other controls and OSC hyperlinks, trims default trailing blanks only', () => {
    expect(chars(parseLine('a\tb', 0, 20))).toBe('a| | | | | | | |b');
    expect(chars(parseLine('a\x07\x1b]8;;https://x.test\x07link\x1b]8;;\x07 ', 0, 20))).toBe('a|l|i|n|k');
    expect(parseLine('x\x1b[44m  ', 0, 20).cells).toHaveLength(3);
  });

  it('flags graphemes terminals disagree on', () => {
    expect(graphemeInfo('中')).toEqual({ w: 2, risky: false });
    expect(graphemeInfo('😀')).toEqual({ w: 2, risky: false });
    expect(graphemeInfo('e\u0301')).toEqual({ w: 1, risky: false });
    expect(graphemeInfo('❤️').risky).toBe(true);
    expect(graphemeInfo('👍🏽').risky).toBe(true);
    expect(graphemeInfo('🇫🇷').risky).toBe(true);
  });
});

describe('cursor moves', () => {
  it('picks the shortest of absolute and relative moves', () => {
    expect(cursorMove(-1, -1, 0, 0, 24)).toBe('\x1b[H');
    expect(cursorMove(-1, -1, 4, 9, 24)).toBe('\x1b[10;5H');
    expect(cursorMove(5, 3, 5, 3, 24)).toBe('');
    expect(cursorMove(5, 3, 6, 3, 24)).toBe('\x1b[C');
    expect(cursorMove(5, 3, 4, 3, 24)).toBe('\b');
    expect(cursorMove(40, 3, 0, 4, 24)).toBe('\r\n');
    expect(cursorMove(40, 23, 0, 24, 25)).toBe('\r\n');
    // Never a line feed on the last row: it would scroll the screen.
    expect(cursorMove(40, 23, 0, 24, 24)).not.toContain('\n');
    // Column unknown (pending wrap): never relative horizontally.
    expect(cursorMove(-1, 3, 10, 3, 24)).toBe('\x1b[11G');
    expect(cursorMove(-1, 3, 0, 3, 24)).toBe('\r');
  });

  it('re-positions absolutely after a grapheme whose width terminals disagree on', () => {
    const out = createByteCounter({ keep: true });
    const writer = createFrameWriter({ out, columns: 20, rows: 2 });
    writer.writeFrame('a❤️b');
    expect(out.text).toContain('a❤️\x1b[4Gb');
  });
});
