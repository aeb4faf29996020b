import hljs from 'highlight.js/lib/core.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { highlightCode, loadLanguage } from '../../../components/markdown/code-highlight.js';
import { BUNDLED_LANGUAGES } from '../../../components/markdown/hljs-bundled.js';
import { LANGUAGES } from '../../../components/markdown/hljs-catalogue.js';
import { loadMarkdown, markdownVersion, onMarkdownChange, renderMarkdown } from '../../../components/markdown/render-markdown.js';
import { stripAnsi } from '../../../components/theme/ansi.js';

// Which languages are coloured when: the common ones (hljs-bundled.ts) on the first render, the
// rest of highlight.js's once imported, which a block naming one starts. The colours themselves
// are checked against cli-highlight's in code-highlight-parity.test.ts.

const block = (lang: string, code: string): string => `\`\`\`${lang}\n${code}\n\`\`\``;
const coloured = (lines: readonly string[]): boolean => lines.some((l) => /\x1b\[(3\d|38;5;\d+)m/.test(l));

/** Resolves at the next markdown change (a language drawn plain has loaded). */
function nextChange(): Promise<void> {
  return new Promise((resolve) => {
    const off = onMarkdownChange(() => {
      off();
      resolve();
    });
  });
}

// A snippet with at least one keyword, string, number or comment in each language (or alias).
const COMMON: ReadonlyArray<readonly [string, string]> = [
  ['typescript', 'const n: number = 1;'],
  ['ts', 'let s = "x";'],
  ['tsx', 'export const A = () => 1;'],
  ['javascript', 'function f() { return 1; }'],
  ['js', 'const x = require("y");'],
  ['python', 'def f():\n    return "x"'],
  ['py', 'import os  # comment'],
  ['bash', 'if [ -f x ]; then echo "y"; fi'],
  ['sh', 'export A=1 # set'],
  ['shell', '$ ls -la\ntotal 0'],
  ['console', '$ echo hi'],
  ['zsh', 'for f in *; do echo $f; done'],
  ['json', '{"a": 1, "b": true}'],
  ['diff', '--- a\n+++ b\n-old\n+new'],
  ['patch', '-old\n+new'],
  ['yaml', 'key: "value"\nn: 3'],
  ['yml', 'list:\n  - true'],
  ['go', 'package main\nfunc main() { return }'],
  ['golang', 'var x int = 1'],
  ['rust', 'fn main() { let x = 1; }'],
  ['rs', 'pub struct S;'],
  ['java', 'public class A { int x = 1; }'],
  ['c', 'int main(void) { return 0; }'],
  ['h', '#include <stdio.h>'],
  ['cpp', 'std::vector<int> v; // c++'],
  ['c++', 'auto x = 1;'],
  ['csharp', 'public class A { string s = "x"; }'],
  ['cs', 'var x = 1;'],
  ['ruby', 'def f\n  "x"\nend'],
  ['rb', 'puts 1'],
  ['php', '<?php echo "x"; ?>'],
  ['sql', 'SELECT a FROM t WHERE b = 1;'],
  ['html', '<div class="x">hi</div>'],
  ['xml', '<?xml version="1.0"?><a b="c"/>'],
  ['svg', '<svg width="1"></svg>'],
  ['css', '.a { color: red; }'],
  ['markdown', '# Title\n\n- item'],
  ['md', '## Section\n\n* item'],
  ['kotlin', 'fun main() { val x = 1 }'],
  ['kt', 'val s = "x"'],
  ['swift', 'let x: Int = 1'],
  ['dockerfile', 'FROM node:20\nRUN npm ci'],
  ['docker', 'COPY . /app'],
  ['makefile', 'all:\n\techo "x"'],
  ['make', 'build:\n\t$(CC) -o app main.c'],
  ['ini', '[section]\nkey = "value"'],
  ['toml', '[package]\nname = "x"\nversion = 1'],
  ['handlebars', '{{#if x}}y{{/if}}'],
  // Some of the other bundled ones.
  ['ps1', 'Write-Host "x" # note'],
  ['lua', 'local x = 1 -- one'],
  ['hs', 'main = putStrLn "hi" -- greet'],
  ['scss', '$c: red;\n.a { color: $c; }'],
  ['pl', 'my $x = "y"; # perl'],
  ['elixir', 'defmodule A do\nend'],
  ['scala', 'object A { val x = 1 }'],
  ['protobuf', 'message A { string s = 1; }'],
  ['tex', '\\section{A} % c'],
];

describe('code block languages', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  it('registers no language before a block names one (marked-terminal gets no cli-highlight)', () => {
    expect(hljs.listLanguages()).toEqual([]);
  });

  it('colours the common languages and their aliases on the first render', () => {
    const version = markdownVersion();
    for (const [lang, code] of COMMON) {
      const lines = renderMarkdown(block(lang, code), 80, 'dark');
      expect(coloured(lines), lang).toBe(true);
      expect(lines.map(stripAnsi), lang).toEqual(code.split('\n').map((l) => `│ ${l.replace(/\t/g, '    ')}`));
    }
    // Plain text is a language too, with nothing to colour.
    expect(renderMarkdown(block('txt', 'just "words" 1'), 80, 'dark').map(stripAnsi)).toEqual(['│ just "words" 1']);
    expect(markdownVersion()).toBe(version);
    // Bundled ones, registered as blocks needed them (html's xml brought css, javascript, handlebars).
    for (const name of hljs.listLanguages()) expect(BUNDLED_LANGUAGES, name).toHaveProperty(name);
    expect(hljs.listLanguages()).toEqual(expect.arrayContaining(['xml', 'css', 'javascript', 'handlebars', 'typescript']));
  });

  it('has every language a bundled one embeds bundled too (xml: css, javascript, handlebars; yaml: ruby)', () => {
    for (const name of Object.keys(BUNDLED_LANGUAGES)) {
      for (const embedded of LANGUAGES[name]?.embeds ?? []) expect(BUNDLED_LANGUAGES, `${name} embeds ${embedded}`).toHaveProperty(embedded);
    }
  });

  it('draws a rarer language plain, imports it, and tells the view to render again, coloured', async () => {
    const text = block('coffee', 'square = (x) -> x * x # "sq"');
    const version = markdownVersion();
    const changed = nextChange();
    const first = renderMarkdown(text, 80, 'dark');
    expect(coloured(first)).toBe(false);
    await changed;
    expect(markdownVersion()).toBe(version + 1);
    const again = renderMarkdown(text, 80, 'dark');
    expect(coloured(again)).toBe(true);
    expect(again.map(stripAnsi)).toEqual(first.map(stripAnsi));
    expect(hljs.listLanguages()).toContain('coffeescript');
  });

  it('tells once for the languages one render asked for together', async () => {
    let notices = 0;
    const off = onMarkdownChange(() => notices++);
    const changed = nextChange();
    const text = [block('tcl', 'proc f {a} { return "x" }'), block('ada', 'procedure A is begin null; end A;'), block('cr', 'def f\n  "x"\nend')].join('\n\n');
    expect(coloured(renderMarkdown(text, 80, 'dark'))).toBe(false);
    await changed;
    await new Promise((resolve) => setTimeout(resolve, 20));
    off();
    expect(notices).toBe(1);
    expect(renderMarkdown(text, 80, 'dark').filter((l) => /\x1b\[3/.test(l)).length).toBeGreaterThanOrEqual(3);
  });

  it('starts importing the language of a block still streaming, so it is coloured once closed', async () => {
    const version = markdownVersion();
    const open = renderMarkdown('```nim\nproc f(x: int): int = 1\n', 80, 'dark');
    expect(coloured(open)).toBe(false);
    await loadLanguage('nim'); // the import started by the render above
    expect(coloured(renderMarkdown('```nim\nproc f(x: int): int = 1\n```', 80, 'dark'))).toBe(true);
    // Nothing was drawn plain for want of it: no reason to render again.
    expect(markdownVersion()).toBe(version);
  });

  it('imports what a language embeds with it (vbscript-html: vbscript)', async () => {
    expect(await loadLanguage('vbscript-html')).toBe(true);
    expect(hljs.listLanguages()).toContain('vbscript');
    const [line] = highlightCode('<% Dim x %>', 'vbscript-html', 'dark');
    expect(line).toContain('\x1b[35mDim\x1b[39m');
  });

  it('leaves words highlight.js does not know plain, without importing anything', async () => {
    const before = hljs.listLanguages().length;
    expect(await loadLanguage('not-a-language')).toBe(false);
    expect(coloured(renderMarkdown(block('not-a-language', 'const x = 1;'), 80, 'dark'))).toBe(false);
    expect(coloured(renderMarkdown(block('output', 'const x = 1;'), 80, 'dark'))).toBe(false);
    expect(hljs.listLanguages()).toHaveLength(before);
  });

  it('imports nothing under NO_COLOR', () => {
    const before = hljs.listLanguages().length;
    expect(coloured(renderMarkdown(block('verilog', 'module m; endmodule'), 80, 'none'))).toBe(false);
    expect(hljs.listLanguages()).toHaveLength(before);
  });
});
