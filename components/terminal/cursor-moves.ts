// Shortest escape sequence for moving the cursor. Coordinates are 0-based; -1 means the
// writer does not know that coordinate (after a write into the last column the terminal
// is in a "pending wrap" state where relative moves behave differently between terminals).
//
// The diff asks for a move (or only its length) for every run of changed cells, every frame:
// the candidates are compared by length, arithmetically, and only the chosen one is built.

const n = (count: number): string => (count === 1 ? '' : String(count));
const digits = (v: number): number => (v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : String(v).length);

export function cursorPosition(x: number, y: number): string {
  if (x === 0) return y === 0 ? '\x1b[H' : `\x1b[${y + 1}H`;
  return `\x1b[${y + 1};${x + 1}H`;
}
const cursorPositionLength = (x: number, y: number): number => (x === 0 ? (y === 0 ? 3 : 3 + digits(y + 1)) : 4 + digits(y + 1) + digits(x + 1));

const column = (x: number): string => (x === 0 ? '\x1b[G' : `\x1b[${x + 1}G`);
const columnLength = (x: number): number => (x === 0 ? 3 : 3 + digits(x + 1));
const right = (dx: number): string => (dx === 0 ? '' : `\x1b[${n(dx)}C`);
const rightLength = (dx: number): number => (dx === 0 ? 0 : dx === 1 ? 3 : 3 + digits(dx));

function vertical(dy: number): string {
  if (dy === 0) return '';
  return dy > 0 ? `\x1b[${n(dy)}B` : `\x1b[${n(-dy)}A`;
}
const verticalLength = (dy: number): number => (dy === 0 ? 0 : 3 + (Math.abs(dy) === 1 ? 0 : digits(Math.abs(dy))));

/** Relative horizontal move from a known column: '' (none), CUF, BS or CUB. */
function relative(dx: number): string {
  if (dx === 0) return '';
  if (dx > 0) return right(dx);
  return dx === -1 ? '\b' : `\x1b[${-dx}D`;
}
const relativeLength = (dx: number): number => (dx === 0 ? 0 : dx > 0 ? rightLength(dx) : dx === -1 ? 1 : 3 + digits(-dx));

type Move = 'none' | 'position' | 'column' | 'return' | 'relative' | 'newline';

/** Which move is cheapest, and its length (ties go to the earlier: position, column, return, relative). */
function choose(fromX: number, fromY: number, toX: number, toY: number, rows: number): { move: Move; length: number } {
  if (fromX === toX && fromY === toY && fromX >= 0) return { move: 'none', length: 0 };
  let move: Move = 'position';
  let length = cursorPositionLength(toX, toY);
  if (fromY < 0) return { move, length };
  // Horizontal part first: '\r' or CHA also leaves any pending-wrap state safely.
  const v = verticalLength(toY - fromY);
  const consider = (m: Move, h: number): void => {
    if (h + v < length) {
      move = m;
      length = h + v;
    }
  };
  consider('column', columnLength(toX));
  consider('return', 1 + rightLength(toX));
  if (fromX >= 0) consider('relative', relativeLength(toX - fromX));
  // LF is only used with CR, so it is safe with or without the tty's onlcr translation.
  if (toX === 0 && toY === fromY + 1 && fromY < rows - 1 && length > 2) return { move: 'newline', length: 2 };
  return { move, length };
}

/** Cheapest of absolute (CUP) and relative moves; never scrolls (no LF on the last row). */
export function cursorMove(fromX: number, fromY: number, toX: number, toY: number, rows: number): string {
  const { move } = choose(fromX, fromY, toX, toY, rows);
  switch (move) {
    case 'none':
      return '';
    case 'position':
      return cursorPosition(toX, toY);
    case 'newline':
      return '\r\n';
    case 'column':
      return column(toX) + vertical(toY - fromY);
    case 'return':
      return '\r' + right(toX) + vertical(toY - fromY);
    case 'relative':
      return relative(toX - fromX) + vertical(toY - fromY);
  }
}

/** The length of cursorMove(...), without building it. */
export function cursorMoveLength(fromX: number, fromY: number, toX: number, toY: number, rows: number): number {
  return choose(fromX, fromY, toX, toY, rows).length;
}
