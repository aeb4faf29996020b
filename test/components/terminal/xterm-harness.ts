// A headless xterm whose character widths follow string-width (as modern terminals
// do), plus a cell-by-cell snapshot for comparing screens.
import xterm from '@xterm/headless';
import stringWidth from 'string-width';

const { Terminal } = xterm;
type XTerm = InstanceType<typeof Terminal>;

// xterm's built-in Unicode 6 tables make emoji one cell wide; register widths that agree
// with string-width. Joining rule copied from xterm's own v6 provider.
const provider = {
  version: 'string-width',
  wcwidth(cp: number): 0 | 1 | 2 {
    if (cp < 32) return 0;
    if (cp < 127) return 1;
    return Math.min(2, stringWidth(String.fromCodePoint(cp))) as 0 | 1 | 2;
  },
  charProperties(cp: number, preceding: number): number {
    let width = this.wcwidth(cp);
    let join = width === 0 && preceding !== 0;
    if (join) {
      const previous = (preceding >> 1) & 3;
      if (previous === 0) join = false;
      else if (previous > width) width = previous as 0 | 1 | 2;
    }
    return (width << 1) | (join ? 1 : 0);
  },
};

export interface VirtualTerminal {
  readonly term: XTerm;
  write(data: string): Promise<void>;
  /** Visible rows as text (trailing blanks trimmed). */
  lines(): string[];
  /** Visible rows cell by cell, normalised for comparison. */
  cells(): string[][];
  resize(columns: number, rows: number): void;
  dispose(): void;
}

/** `convertEol` makes LF also return the carriage, as a tty's onlcr does for raw program output. */
export function createVirtualTerminal(columns: number, rows: number, options: { convertEol?: boolean } = {}): VirtualTerminal {
  const term = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0, convertEol: options.convertEol ?? false });
  term.unicode.register(provider);
  term.unicode.activeVersion = provider.version;
  const line = (y: number) => {
    const buffer = term.buffer.active;
    const l = buffer.getLine(buffer.baseY + y);
    if (!l) throw new Error(`no terminal line ${y}`);
    return l;
  };
  return {
    term,
    write: (data) => new Promise((resolve) => term.write(data, resolve)),
    lines: () => Array.from({ length: term.rows }, (_, y) => line(y).translateToString(true)),
    cells() {
      const cell = term.buffer.active.getNullCell();
      return Array.from({ length: term.rows }, (_, y) => {
        const l = line(y);
        return Array.from({ length: term.cols }, (_, x) => {
          l.getCell(x, cell);
          if (cell.getWidth() === 0) return '<half>';
          const attrs = [
            cell.getFgColorMode(), cell.getFgColor(), cell.getBgColorMode(), cell.getBgColor(),
            cell.isBold(), cell.isDim(), cell.isItalic(), cell.isUnderline(), cell.isBlink(),
            cell.isInverse(), cell.isInvisible(), cell.isStrikethrough(), cell.isOverline(),
          ].map((a) => (typeof a === 'boolean' ? (a ? 1 : 0) : a));
          return `${cell.getChars() || ' '}:${cell.getWidth()}:${attrs.join(',')}`;
        });
      });
    },
    resize: (c, r) => term.resize(c, r),
    dispose: () => term.dispose(),
  };
}

/** Draws a frame the naive way (each line at its row, nothing clipped) on a fresh terminal. */
export async function renderReference(frame: string, columns: number, rows: number): Promise<VirtualTerminal> {
  const vt = createVirtualTerminal(columns, rows);
  const lines = frame.split('\n').slice(0, rows);
  await vt.write(lines.map((l, y) => `\x1b[${y + 1};1H${l}`).join(''));
  return vt;
}
