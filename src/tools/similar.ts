import fs from 'node:fs/promises';
import path from 'node:path';

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur.push(Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

function stem(name: string): string {
  const ext = path.extname(name);
  return (ext ? name.slice(0, -ext.length) : name).toLowerCase();
}

/** A sibling whose name is close to the missing one (typo, wrong case, wrong extension), if any. */
export async function similarSibling(missing: string): Promise<string | undefined> {
  let names: string[];
  try {
    names = await fs.readdir(path.dirname(missing));
  } catch {
    return undefined; // The parent itself is missing: there is nothing to suggest.
  }
  const want = path.basename(missing);
  let best: { name: string; score: number } | undefined;
  for (const name of names) {
    let score: number;
    if (name.toLowerCase() === want.toLowerCase()) score = 0;
    else if (stem(name) === stem(want)) score = 1;
    else {
      const d = levenshtein(name.toLowerCase(), want.toLowerCase());
      if (d > Math.max(2, Math.floor(want.length / 4))) continue;
      score = 1 + d;
    }
    if (!best || score < best.score || (score === best.score && name < best.name)) best = { name, score };
  }
  return best ? path.join(path.dirname(missing), best.name) : undefined;
}

function bigrams(s: string): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i < s.length - 1; i++) {
    const g = s.slice(i, i + 2);
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

/** Dice coefficient over character bigrams: cheap enough to run over every line of a file. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const ga = bigrams(a);
  const gb = bigrams(b);
  let overlap = 0;
  for (const [g, n] of ga) overlap += Math.min(n, gb.get(g) ?? 0);
  return (2 * overlap) / (a.length - 1 + b.length - 1);
}
