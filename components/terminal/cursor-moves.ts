// Shortest escape sequence for moving the cursor. Coordinates are 0-based; -1 means the
// writer does not know that coordinate (after a write into the last column the terminal
// is in a "pending wrap" state where relative moves behave differently between terminals).

const n = (count: number): string => (count === 1 ? '' : String(count));

export function cursorPosition(x: number, y: number): string {
  if (x === 0) return y === 0 ? '\x1b[H' : `\x1b[${y + 1}H`;
  return `\x1b[${y + 1};${x + 1}H`;
}

const column = (x: number): string => (x === 0 ? '\x1b[G' : `\x1b[${x + 1}G`);
const right = (dx: number): string => (dx === 0 ? '' : `\x1b[${n(dx)}C`);

function vertical(dy: number): string {
  if (dy === 0) return '';
  return dy > 0 ? `\x1b[${n(dy)}B` : `\x1b[${n(-dy)}A`;
}

function horizontalOptions(fromX: number, toX: number): string[] {
  const options = [column(toX), '\r' + right(toX)];
  if (fromX >= 0) {
    const dx = toX - fromX;
    if (dx === 0) options.push('');
    else if (dx > 0) options.push(right(dx));
    else if (dx === -1) options.push('\b');
    else options.push(`\x1b[${-dx}D`);
  }
  return options;
}

/** Cheapest of absolute (CUP) and relative moves; never scrolls (no LF on the last row). */
export function cursorMove(fromX: number, fromY: number, toX: number, toY: number, rows: number): string {
  if (fromX === toX && fromY === toY && fromX >= 0) return '';
  let best = cursorPosition(toX, toY);
  if (fromY < 0) return best;
  // Horizontal part first: '\r' or CHA also leaves any pending-wrap state safely.
  const v = vertical(toY - fromY);
  for (const h of horizontalOptions(fromX, toX)) {
    const candidate = h + v;
    if (candidate.length < best.length) best = candidate;
  }
  // LF is only used with CR, so it is safe with or without the tty's onlcr translation.
  if (toX === 0 && toY === fromY + 1 && fromY < rows - 1 && best.length > 2) best = '\r\n';
  return best;
}
