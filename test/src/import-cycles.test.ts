import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// No import circle in src/ or components/, type-only imports included: a circle means two modules
// that can only be understood (and loaded) together. Shared types go to a leaf module instead.
const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Each file's relative imports that resolve to a file in the set. */
function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps: string[] = [];
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const base = path.resolve(path.dirname(file), (m[1] ?? m[2])!).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((f) => known.has(f));
      if (target) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The circles: strongly connected groups of more than one file, or a file importing itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1 || graph.get(v)?.includes(v)) out.push(group.map((f) => path.relative(root, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('import circles', () => {
  it('src/ and components/ have none', () => {
    const files = [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'components'))];
    expect(files.length).toBeGreaterThan(300);
    const key = (group: readonly string[]): string => group.join(' ');
    expect(circles(importGraph(files)).map(key)).toEqual([]);
  });

  it('finds a circle through a type-only import, and only the files in it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-cycles-'));
    try {
      const write = (name: string, text: string): string => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      const a = write('a.ts', "import type { B } from './b.js';\nexport interface A { b?: B }\n");
      const b = write('b.ts', "import { c } from './c.js';\nimport type { A } from './a.js';\nexport interface B { a?: A }\nexport const x = c;\n");
      const c = write('c.ts', 'export const c = 1;\n');
      expect(circles(importGraph([a, b, c])).map((g) => g.map((f) => path.basename(f)))).toEqual([['a.ts', 'b.ts']]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
