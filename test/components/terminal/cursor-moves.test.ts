import { describe, expect, it } from 'vitest';
import { cursorMove, cursorMoveLength } from '../../../components/terminal/cursor-moves.js';

// The moves as first written (every candidate built as a string, the shortest kept): the
// arithmetic choice must pick exactly the same sequence.
function reference(fromX: number, fromY: number, toX: number, toY: number, rows: number): string {
  const n = (c: number): string => (c === 1 ? '' : String(c));
  const position = toX === 0 ? (toY === 0 ? '\x1b[H' : `\x1b[${toY + 1}H`) : `\x1b[${toY + 1};${toX + 1}H`;
  if (fromX === toX && fromY === toY && fromX >= 0) return '';
  let best = position;
  if (fromY < 0) return best;
  const dy = toY - fromY;
  const v = dy === 0 ? '' : dy > 0 ? `\x1b[${n(dy)}B` : `\x1b[${n(-dy)}A`;
  const right = (dx: number): string => (dx === 0 ? '' : `\x1b[${n(dx)}C`);
  const options = [toX === 0 ? '\x1b[G' : `\x1b[${toX + 1}G`, '\r' + right(toX)];
  if (fromX >= 0) {
    const dx = toX - fromX;
    options.push(dx === 0 ? '' : dx > 0 ? right(dx) : dx === -1 ? '\b' : `\x1b[${-dx}D`);
  }
  for (const h of options) if ((h + v).length < best.length) best = h + v;
  if (toX === 0 && toY === fromY + 1 && fromY < rows - 1 && best.length > 2) best = '\r\n';
  return best;
}

describe('cursor moves', () => {
  it('chooses exactly the shortest candidate, and reports its length without building it', () => {
    const xs = [-1, 0, 1, 2, 8, 9, 10, 11, 98, 99, 100, 101, 119, 998, 999, 1000, 1200];
    const ys = [-1, 0, 1, 2, 8, 9, 10, 38, 39, 98, 99, 100];
    for (const fromX of xs)
      for (const fromY of ys)
        for (const toX of xs.filter((x) => x >= 0))
          for (const toY of ys.filter((y) => y >= 0)) {
            const expected = reference(fromX, fromY, toX, toY, 40);
            expect(cursorMove(fromX, fromY, toX, toY, 40), `${fromX},${fromY} -> ${toX},${toY}`).toBe(expected);
            expect(cursorMoveLength(fromX, fromY, toX, toY, 40)).toBe(expected.length);
          }
  });
});
