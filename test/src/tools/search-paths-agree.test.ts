import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFileIndex } from '../../../src/mentions/file-index.js';
import { createGlobTool } from '../../../src/tools/glob.js';
import { createGrepTool, type GrepInput } from '../../../src/tools/grep.js';
import { jsRegexToRust } from '../../../src/tools/js-regex-to-rust.js';
import { RIPGREP_ENV, ripgrepPath } from '../../../src/tools/ripgrep-path.js';
import type { ToolContext, ToolResult } from '../../../src/tools/tool.js';
import { SEARCH_PATHS } from '../../helpers/search-paths.js';

// Generated trees searched both ways (ripgrep, and the JavaScript fallback) must give the same results.

const DIRS = ['a', 'b', 'a/deep', '.hid', 'node_modules/pkg', 'sub', 'sub/x'] as const;
const NAMES = ['x.ts', 'y.js', 'z.txt', '.env', 'keep.js', 'a b.md', 'n1.ts', 'B.TS', 'é.txt'] as const;
const LINES = [
  'needle',
  'Needle here',
  'foo bar',
  'foobar baz',
  '  indented foo',
  'x = 42;',
  'ÉNORME needle',
  'éfoo',
  'tab\tsep',
  'end with space ',
  'a+b=c',
  '',
  'path/to/file.ts',
  '(paren) [bracket] {brace}',
] as const;
const IGNORES = ['*.js', '!keep.js', 'sub/', '/z.txt', 'deep', '*.md', 'x/'] as const;
const PATTERNS = [
  'needle',
  'Needle',
  '^foo',
  'bar$',
  'n.e',
  '\\bfoo\\b',
  'foo|baz',
  '[a-c]+r',
  '\\d+',
  'ne+dle',
  '(foo|bar) ',
  '\\s$',
  '\\w\\W\\w',
  '[^a-z ]',
  '\\(paren\\)',
  '\\{brace}',
  'é',
  '^$',
  'a\\+b',
  '[.]ts',
  'x{2}|e{2}',
  '(?:o){2,}',
  '\\S+\\s\\S+',
  '\\.ts$',
] as const;
const GLOBS = [undefined, '*.ts', '*.{ts,js}', 'a/**', '**/*.txt', '*.TS', 'deep/*', '[xy].*'] as const;

interface Tree {
  files: { dir: string; name: string; lines: string[]; crlf: boolean; binary: boolean }[];
  ignores: { dir: string; rules: string[] }[];
  link: boolean;
}

const treeArb: fc.Arbitrary<Tree> = fc.record({
  files: fc.array(
    fc.record({
      dir: fc.constantFrom('', ...DIRS),
      name: fc.constantFrom(...NAMES),
      lines: fc.array(fc.constantFrom(...LINES), { maxLength: 6 }),
      crlf: fc.boolean(),
      binary: fc.integer({ min: 0, max: 8 }).map((n) => n === 0),
    }),
    { minLength: 1, maxLength: 14 },
  ),
  ignores: fc.array(fc.record({ dir: fc.constantFrom('', 'a', 'sub'), rules: fc.subarray([...IGNORES]) }), { maxLength: 2 }),
  link: fc.boolean(),
});

let base: string;
beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-agree-')));
});
afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

let runs = 0;
async function materialise(tree: Tree): Promise<string> {
  const root = path.join(base, `t${runs++}`);
  const ws = path.join(root, 'ws');
  await fs.mkdir(ws, { recursive: true });
  for (const f of tree.files) {
    await fs.mkdir(path.join(ws, f.dir), { recursive: true });
    const text = f.lines.join(f.crlf ? '\r\n' : '\n') + (f.lines.length > 0 ? '\n' : '');
    await fs.writeFile(path.join(ws, f.dir, f.name), f.binary ? Buffer.concat([Buffer.from(text), Buffer.from([0])]) : text);
  }
  for (const ig of tree.ignores) {
    await fs.mkdir(path.join(ws, ig.dir), { recursive: true });
    await fs.writeFile(path.join(ws, ig.dir, '.gitignore'), ig.rules.join('\n') + '\n');
  }
  if (tree.link) {
    await fs.writeFile(path.join(root, 'outside.txt'), 'needle outside\n');
    await fs.symlink(path.join(root, 'outside.txt'), path.join(ws, 'out-link.txt'));
    const inside = tree.files[0];
    if (inside) await fs.symlink(path.join(ws, inside.dir, inside.name), path.join(ws, 'in-link.ts'));
  }
  return ws;
}

async function bothWays<T>(run: () => Promise<T>): Promise<[T, T]> {
  const saved = process.env[RIPGREP_ENV];
  try {
    const results: T[] = [];
    for (const [, value] of SEARCH_PATHS) {
      if (value === undefined) delete process.env[RIPGREP_ENV];
      else process.env[RIPGREP_ENV] = value;
      results.push(await run());
    }
    return [results[0] as T, results[1] as T];
  } finally {
    if (saved === undefined) delete process.env[RIPGREP_ENV];
    else process.env[RIPGREP_ENV] = saved;
  }
}

/**
 * A capped result says "there are more"; how many more each way counted is not compared: the JavaScript walk
 * searches files in batches and caps lines per file, so its tally past the cap can differ (a seeded run found
 * 7 against 8). What is shown, the cap and everything else must agree.
 */
function uncountedPastCap(r: ReturnType<typeof shape>): ReturnType<typeof shape> {
  const display = r.display as { capped?: boolean; matches?: number; files?: number } | undefined;
  if (!display?.capped) return r;
  const { matches: _matches, files: _files, ...rest } = display;
  return { ...r, display: rest };
}

const shape = (r: ToolResult): { content: string; isError: boolean; display: unknown } => ({ content: r.content, isError: r.isError ?? false, display: r.display });

describe('ripgrep and the JavaScript fallback agree on generated trees', () => {
  it('has a ripgrep binary to compare with, and it runs', async () => {
    const bin = await ripgrepPath({});
    expect(bin).toBeDefined();
    expect(await ripgrepPath({ [RIPGREP_ENV]: '/nonexistent/cairn-test/rg' })).toBeUndefined();
  });

  it('every generated pattern goes to ripgrep (the comparison is not vacuous)', () => {
    for (const p of PATTERNS) {
      expect(jsRegexToRust(p, false), p).toBeDefined();
      // Case-blind non-ASCII letters fold differently in the two engines: those stay in JavaScript.
      if (p !== 'é') expect(jsRegexToRust(p, true), p).toBeDefined();
    }
    expect(jsRegexToRust('é', true)).toBeUndefined();
  });

  it('grep gives the same answer both ways', async () => {
    await fc.assert(
      fc.asyncProperty(
        treeArb,
        fc.record({
          pattern: fc.constantFrom(...PATTERNS),
          case_insensitive: fc.boolean(),
          output_mode: fc.constantFrom('content', 'files_with_matches', 'count'),
          glob: fc.constantFrom(...GLOBS),
          path: fc.constantFrom(undefined, 'a', 'sub', 'node_modules'),
          denyEnv: fc.boolean(),
          // Small caps are often passed, so ripgrep's search in walk order runs as well as its parallel one alone.
          cap: fc.constantFrom(1, 3, 5),
        }),
        async (tree, q) => {
          const ws = await materialise(tree);
          const ctx: ToolContext = {
            cwd: ws,
            signal: new AbortController().signal,
            isReadDenied: q.denyEnv ? (abs) => path.basename(abs) === '.env' || abs.endsWith('/a/deep') || abs.includes('/a/deep/') : undefined,
          };
          const input: GrepInput = { pattern: q.pattern, case_insensitive: q.case_insensitive, output_mode: q.output_mode };
          if (q.glob !== undefined) input.glob = q.glob;
          if (q.path !== undefined) input.path = q.path;
          const tool = createGrepTool({ maxResults: q.cap });
          const [rg, js] = await bothWays(async () => uncountedPastCap(shape(await tool.call(input, ctx))));
          expect(rg).toEqual(js);
        },
      ),
      { numRuns: 60 },
    );
  }, 240_000);

  it('a capped search counts the skipped links and denied files before its cut only, both ways', async () => {
    // Found by the property above: the JavaScript walk searches in batches and ran past the cut, counting a link
    // after it. Walk order: B.TS, in-link.ts (to B.TS), keep.js, out-link.txt (outside), x.ts; cap 1 line.
    const ws = await materialise({
      files: [
        { dir: '', name: 'B.TS', lines: ['  indented foo'], crlf: false, binary: false },
        { dir: '', name: 'keep.js', lines: ['foobar baz'], crlf: false, binary: false },
        { dir: '', name: 'x.ts', lines: [], crlf: false, binary: true },
      ],
      ignores: [],
      link: true,
    });
    const denyKeep = (abs: string): boolean => path.basename(abs) === 'keep.js';
    for (const isReadDenied of [undefined, denyKeep]) {
      const ctx: ToolContext = { cwd: ws, signal: new AbortController().signal, ...(isReadDenied ? { isReadDenied } : {}) };
      const tool = createGrepTool({ maxResults: 1 });
      const [rg, js] = await bothWays(async () => shape(await tool.call({ pattern: '\\S+\\s\\S+', output_mode: 'content' }, ctx)));
      expect(rg.content).toBe('B.TS:1:  indented foo\n\n(Results capped at 1 matching lines; there are more. Narrow the pattern, path or glob.)');
      expect(js).toEqual(rg);
    }
  });

  it('glob and the @ file index list the same files both ways', async () => {
    await fc.assert(
      fc.asyncProperty(
        treeArb,
        fc.constantFrom('**/*', '*', '**/*.ts', 'a/**', '*.{ts,js}', '**/.env', 'sub/*/*', '**/[xy].*', 'node_modules/**'),
        fc.constantFrom(undefined, 'a', 'sub'),
        async (tree, pattern, where) => {
          const ws = await materialise(tree);
          const ctx: ToolContext = { cwd: ws, signal: new AbortController().signal };
          const tool = createGlobTool();
          const input = where === undefined ? { pattern } : { pattern, path: where };
          const [rg, js] = await bothWays(async () => {
            const r = await tool.call(input, ctx);
            // Files written in the same instant tie on mtime; compare the set, the order rule is shared code.
            return { ...shape(r), content: r.content.split('\n').sort() };
          });
          expect(rg).toEqual(js);
          const [rgIndex, jsIndex] = await bothWays(() => buildFileIndex(ws));
          expect(rgIndex).toEqual(jsIndex);
        },
      ),
      { numRuns: 40 },
    );
  }, 240_000);
});
