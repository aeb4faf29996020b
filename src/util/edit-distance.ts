/**
 * Levenshtein distance: the fewest single-character insertions, deletions and substitutions that turn
 * `a` into `b` (UTF-16 code units). Used to suggest the name a typo was meant to be.
 */
export function editDistance(a: string, b: string): number {
  // One row of the table at a time: row[j] is the distance from the first i characters of a to the first j of b.
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  let distance = b.length;
  for (let i = 0; i < a.length; i++) {
    const next = [i + 1];
    let left = i + 1;
    let diagonal = i;
    for (const [j, up] of row.slice(1).entries()) {
      left = Math.min(up + 1, left + 1, diagonal + (a[i] === b[j] ? 0 : 1));
      next.push(left);
      diagonal = up;
    }
    row = next;
    distance = left;
  }
  return distance;
}
