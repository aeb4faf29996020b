import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { highlightCode, loadLanguage } from '../../../components/markdown/code-highlight.js';
import { LANGUAGES } from '../../../components/markdown/hljs-catalogue.js';
import type { MarkdownTheme } from '../../../components/markdown/markdown-styles.js';
import { carryStyles } from '../../../components/markdown/sgr-carry.js';
import { createTheme, type ColorToken } from '../../../components/theme/theme.js';

// Code blocks come out exactly as they did through cli-highlight with all of highlight.js, which
// the app used before (and marked-terminal still depends on): every language, on snippets of
// several languages, each alias, both palettes. cli-highlight runs in a child process, so its
// highlight.js (it registers every language) is not the one under test.

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

// The app's class -> colour table as it was with cli-highlight (hyphenated classes included,
// which cli-highlight looked up by their first word only).
const OLD_TOKEN_COLORS: Readonly<Record<string, ColorToken>> = {
  keyword: 'running',
  'selector-tag': 'running',
  literal: 'running',
  'meta-keyword': 'running',
  doctag: 'running',
  built_in: 'accent',
  'builtin-name': 'accent',
  type: 'accent',
  class: 'accent',
  title: 'accent',
  section: 'accent',
  string: 'success',
  regexp: 'success',
  'meta-string': 'success',
  addition: 'diffAdd',
  number: 'warning',
  symbol: 'warning',
  bullet: 'warning',
  comment: 'muted',
  quote: 'muted',
  meta: 'muted',
  deletion: 'diffRemove',
  attr: 'user',
  attribute: 'user',
  variable: 'user',
  'template-variable': 'user',
  name: 'user',
  tag: 'user',
};

// The old code-highlight.ts, run on cli-highlight: input {codes, cases}, output one string per
// case (null: left plain, as the old code did for an unknown language or a throw).
const REFERENCE = `
const { highlight, supportsLanguage, DEFAULT_THEME } = require('cli-highlight');
const { codes, cases } = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const plain = (t) => t;
function foreground(code) {
  const open = '\\x1b[' + code + 'm';
  return (t) => (t === '' ? t : open + t.replaceAll('\\x1b[39m', '\\x1b[39m' + open) + '\\x1b[39m');
}
const themes = {};
for (const [name, byClass] of Object.entries(codes)) {
  const entries = Object.keys(DEFAULT_THEME).map((cls) => [cls, byClass[cls] ? foreground(byClass[cls]) : plain]);
  themes[name] = { ...Object.fromEntries(entries), default: plain };
}
const out = cases.map(([word, code, theme]) => {
  const language = (word.trim().split(/\\s+/)[0] || '').toLowerCase();
  if (!language || !supportsLanguage(language)) return null;
  try {
    return highlight(code, { language, ignoreIllegals: true, theme: themes[theme] });
  } catch {
    return null;
  }
});
process.stdout.write(JSON.stringify(out));
`;

const SNIPPETS: readonly string[] = [
  [
    '// @ts-check: a "module" & its <T> parts',
    "import { x } from './x.js';",
    '@decorator()',
    'export class A<T> extends B implements C {',
    '  #n = 0x1F; static s = `a ${1 + 2} b`; re = /a[<>]+b/gi;',
    '  async *f(a: string = \'q\', ...r: number[]): Promise<void> { return <div id="x">{a}</div>; }',
    '}',
    '/* two',
    '   lines */',
  ].join('\n'),
  [
    '#!/usr/bin/env python3',
    '"""Doc string."""',
    '@dataclass(frozen=True)',
    'def f(a: int = 1, *args, **kw) -> "str":',
    "    return f'{a!r:>10} and {kw}' if a < 3 and a > 1 else None  # note",
    'class K(Base): pass',
    'x = [i ** 2 for i in range(10)]; y = 1e-3j; z = b"\\x00"',
  ].join('\n'),
  [
    '#!/bin/bash',
    'set -euo pipefail',
    'for f in "$@"; do',
    '  if [[ -f "$f" && $(wc -l < "$f") -gt 10 ]]; then echo "${f%.txt}: big" >&2; fi',
    'done',
    "cat <<'EOF' > out.txt",
    'heredoc $not_expanded',
    'EOF',
    'export PATH=$HOME/bin:$PATH # comment',
    '$ npm test && echo ok',
  ].join('\n'),
  [
    '<!DOCTYPE html>',
    '<html lang="en"><head><title>A &amp; B</title>',
    '<style>body { color: #fff; margin: 0 auto; } .a:hover > b { x: 1px }</style>',
    '<script>const a = 1 < 2 && "x"; function f() { return \'y\'; }</script>',
    "<script type=\"text/x-handlebars\">{{#if a}}{{b}}{{/if}}</script>",
    '</head><body onload="go()"><!-- comment --><p class=\'c\'>Text &lt;here&gt;</p></body></html>',
  ].join('\n'),
  [
    '# Heading',
    '',
    'Some *emphasis*, **strong**, `code`, [a link](http://x.y "t") and <b>html</b>.',
    '',
    '> quote',
    '',
    '1. one',
    '- [ ] task',
    '',
    '```js',
    'const x = 1;',
    '```',
  ].join('\n'),
  ['{', '  "a": [1, 2.5e3, -3, true, false, null],', '  "b": {"c": "d \\" e", "f": "<>&\'"}', '}'].join('\n'),
  [
    "SELECT a.id, COUNT(*) AS n FROM accounts a LEFT JOIN t ON t.a = a.id WHERE a.name LIKE 'x%' -- c",
    'GROUP BY 1 HAVING n > 2 ORDER BY n DESC LIMIT 10;',
    'CREATE TABLE t (id INTEGER PRIMARY KEY, s VARCHAR(10) NOT NULL DEFAULT \'\');',
  ].join('\n'),
  [
    '#include <stdio.h>',
    '#define MAX(a, b) ((a) > (b) ? (a) : (b))',
    'typedef struct node { int v; struct node *next; } node_t;',
    "int main(int argc, char **argv) { char c = '<'; printf(\"%d\\n\", argc); return 0; }",
    'fn main() -> Result<(), Box<dyn Error>> { let mut v: Vec<u8> = vec![1, 2]; Ok(()) }',
    'func (s *S) Go(ctx context.Context) error { return nil }',
  ].join('\n'),
  ['POST /api/items?x=1 HTTP/1.1', 'Host: example.com', 'Content-Type: application/json', '', '{"name": "x", "n": 2}'].join('\n'),
  ['key: value', 'list:', '  - <%= ENV["X"] %>', '  - !!str 3', 'anchor: &a {b: 1}', 'multi: |', '  text # not a comment', '--- # doc'].join('\n'),
  ['(defun f (x) (* x 2)) ; lisp', 'let rec f x = x + 1 (* ml *)', 'main = putStrLn "hi" -- haskell', 'proc p {a} { puts $a }', 'end', ':- module(m, []).'].join('\n'),
];

type Case = [word: string, code: string, theme: MarkdownTheme];

async function reference(cases: readonly Case[]): Promise<(string | null)[]> {
  const codes: Record<string, Record<string, string>> = {};
  for (const theme of ['dark', 'light'] as const) {
    const colors = createTheme(theme, {}).colors;
    codes[theme] = Object.fromEntries(Object.entries(OLD_TOKEN_COLORS).map(([cls, token]) => [cls, colors[token]]));
  }
  const run = promisify(execFile);
  const child = run(process.execPath, ['-e', REFERENCE], { cwd: ROOT, maxBuffer: 512 * 1024 * 1024 });
  child.child.stdin?.end(JSON.stringify({ codes, cases }));
  return JSON.parse((await child).stdout) as (string | null)[];
}

/** The cases that come out otherwise than cli-highlight made them. */
function compare(cases: readonly Case[], expected: readonly (string | null)[]): string[] {
  // Most cases are coloured (a reference that colours nothing would prove nothing).
  expect(expected.filter((e) => e?.includes('\x1b[')).length).toBeGreaterThan(cases.length * 0.6);
  const mismatches: string[] = [];
  cases.forEach(([word, code, theme], i) => {
    const before = expected[i];
    const want = before === null || before === undefined ? code.split('\n') : carryStyles(before.split('\n'));
    const got = highlightCode(code, word, theme);
    if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`${word} (${theme}) on snippet ${SNIPPETS.indexOf(code)}`);
  });
  return mismatches;
}

describe('code highlighting against cli-highlight', () => {
  beforeAll(async () => {
    for (const name of Object.keys(LANGUAGES)) expect(await loadLanguage(name), name).toBe(true);
  }, 60_000);

  it('colours every language the same, on every snippet', async () => {
    const cases: Case[] = Object.keys(LANGUAGES).flatMap((name) => SNIPPETS.map((code): Case => [name, code, 'dark']));
    expect(compare(cases, await reference(cases))).toEqual([]);
  }, 120_000);

  it('with the light palette too, and every alias and unknown word names the same language as before', async () => {
    const aliases = Object.values(LANGUAGES).flatMap((entry) => entry.aliases ?? []);
    const words = [...aliases, 'TypeScript', 'PY', 'text', 'output', 'console', 'not-a-language', 'ts title="x"', ''];
    const cases: Case[] = [
      ...Object.keys(LANGUAGES).map((name, i): Case => [name, SNIPPETS[i % SNIPPETS.length] ?? '', 'light']),
      ...words.flatMap((word) => [0, 3, 7].map((k): Case => [word, SNIPPETS[k] ?? '', 'dark'])),
    ];
    expect(compare(cases, await reference(cases))).toEqual([]);
  }, 120_000);
});
