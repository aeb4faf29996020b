import { itemAt } from '../util/invariant.js';

// Deterministic markdown of a given word count, varied like a real answer: headings,
// paragraphs, lists, code blocks and tables. Used by `stream <N>` for benchmarks.

const WORDS = (
  'the agent reads files edits code runs tests and reports what changed while keeping history valid ' +
  'streaming deltas render quickly when only changed cells reach the terminal a parser splits blocks ' +
  'safely so finished paragraphs are cached and never parsed again tools run in parallel batches'
).split(' ');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function generateMarkdown(wordCount: number, seed = 42): string {
  const rand = rng(seed);
  const word = (): string => itemAt(WORDS, Math.floor(rand() * WORDS.length), 'word');
  const words = (n: number): string[] => Array.from({ length: n }, word);
  const parts: string[] = [];
  let remaining = wordCount;
  let section = 0;
  const take = (n: number): number => {
    const k = Math.max(1, Math.min(n, remaining));
    remaining -= k;
    return k;
  };
  while (remaining > 0) {
    const kind = section % 5;
    section++;
    if (kind === 0) {
      const w = words(take(3));
      parts.push(`## ${capitalize(w.join(' '))}`);
    } else if (kind === 1 || kind === 3) {
      const w = words(take(40 + Math.floor(rand() * 30)));
      if (w.length > 4) {
        w[1] = `**${w[1]}**`;
        w[3] = `\`${w[3]}\``;
      }
      parts.push(capitalize(w.join(' ')) + '.');
    } else if (kind === 2) {
      const items: string[] = [];
      for (let i = 0; i < 4 && remaining > 0; i++) items.push(`- ${capitalize(words(take(6)).join(' '))}`);
      parts.push(items.join('\n'));
    } else if (section % 2 === 0) {
      const lines: string[] = [];
      for (let i = 0; i < 3 && remaining > 0; i++) {
        const [a, b] = words(take(2));
        lines.push(`const ${a ?? 'x'}${i} = run("${b ?? 'y'}");`);
      }
      parts.push('```ts\n' + lines.join('\n') + '\n```');
    } else {
      const rows = ['| name | value | note |', '| --- | --- | --- |'];
      for (let i = 0; i < 3 && remaining > 0; i++) {
        const [a, b, c] = words(take(3));
        rows.push(`| ${a ?? '-'} | ${b ?? '-'} | ${c ?? '-'} |`);
      }
      parts.push(rows.join('\n'));
    }
  }
  return parts.join('\n\n') + '\n';
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Splits text into deltas of `size` characters (by code point, so no surrogate is cut). */
export function chunkText(text: string, size: number): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}
