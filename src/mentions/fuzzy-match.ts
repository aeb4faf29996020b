/**
 * Fuzzy path matching for `@` completion: the query's characters in order (case-insensitive);
 * a match scores higher when they fall on the file name, at word starts, and together. Returns
 * the best `limit` paths, best first. One pass over the list, no allocation per miss.
 */
export function fuzzyMatch(paths: readonly string[], query: string, limit = 50): string[] {
  const q = query.toLowerCase();
  if (q === '') return paths.slice(0, limit);
  const lowered = lowerOf(paths);
  const best: { path: string; score: number }[] = [];
  for (let i = 0; i < paths.length; i++) {
    const p = paths[i] ?? '';
    const score = scorePath(p, q, lowered[i]);
    if (score === undefined) continue;
    if (best.length === limit && score <= (best[best.length - 1]?.score ?? -Infinity)) continue;
    let at = best.length;
    while (at > 0 && (best[at - 1]?.score ?? 0) < score) at--;
    best.splice(at, 0, { path: p, score });
    if (best.length > limit) best.pop();
  }
  return best.map((b) => b.path);
}

// Lower-cased once per list (the index is reused for every keystroke).
const lowerCache = new WeakMap<readonly string[], string[]>();
function lowerOf(paths: readonly string[]): string[] {
  let lower = lowerCache.get(paths);
  if (!lower) {
    lower = paths.map((p) => p.toLowerCase());
    lowerCache.set(paths, lower);
  }
  return lower;
}

const BOUNDARY = new Set(['/', '-', '_', '.', ' ']);

/** undefined when the query is not a subsequence of the path. */
export function scorePath(p: string, q: string, lower = p.toLowerCase()): number | undefined {
  const nameStart = p.lastIndexOf('/') + 1;
  let score = 0;
  let from = 0;
  let prev = -2;
  for (let k = 0; k < q.length; k++) {
    const at = lower.indexOf(q[k] ?? '', from);
    if (at === -1) return undefined;
    if (at === prev + 1) score += 5;
    if (at === 0 || BOUNDARY.has(p[at - 1] ?? '')) score += 3;
    if (at >= nameStart) score += 2;
    prev = at;
    from = at + 1;
  }
  // A whole substring in the name beats letters scattered over the path; shorter paths first.
  if (lower.slice(nameStart).includes(q)) score += 10;
  return score - p.length * 0.01;
}
