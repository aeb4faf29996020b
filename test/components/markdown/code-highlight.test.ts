import { beforeAll, describe, expect, it } from 'vitest';
import { fenceClosed, highlightCode } from '../../../components/markdown/code-highlight.js';
import { loadMarkdown, renderMarkdown } from '../../../components/markdown/render-markdown.js';
import { stripAnsi } from '../../../components/theme/ansi.js';

const TS = 'const n: number = 42; // the answer\n/* two\n   lines */\nlet s = `a ${n + 1} b`;';

describe('code highlighting', () => {
  beforeAll(async () => {
    await loadMarkdown();
  });

  it('colours tokens with the palette of the theme', () => {
    const [dark] = highlightCode(TS, 'ts', 'dark');
    expect(dark).toContain('\x1b[35mconst\x1b[39m');
    expect(dark).toContain('\x1b[33m42\x1b[39m');
    expect(dark).toContain('\x1b[38;5;245m// the answer\x1b[39m');
    const [light] = highlightCode(TS, 'typescript', 'light');
    expect(light).toContain('\x1b[38;5;90mconst\x1b[39m');
  });

  it('leaves code plain under NO_COLOR, without a language, or with one it does not know', () => {
    const plain = TS.split('\n');
    expect(highlightCode(TS, 'ts', 'none')).toEqual(plain);
    expect(highlightCode(TS, undefined, 'dark')).toEqual(plain);
    expect(highlightCode(TS, 'not-a-language', 'dark')).toEqual(plain);
  });

  it('keeps the text, and each row opens and closes its own colours (a row can be repainted alone)', () => {
    const rows = highlightCode(TS, 'ts', 'dark');
    expect(rows.map(stripAnsi)).toEqual(TS.split('\n'));
    // The block comment spans two rows: the second reopens the comment colour.
    expect(rows[1]).toMatch(/\x1b\[0m$/);
    expect(rows[2]).toMatch(/^\x1b\[38;5;245m {3}lines \*\//);
    // A token inside a template string gives the string its colour back after it.
    expect(rows[3]).toContain('\x1b[33m1\x1b[39m\x1b[32m} b`');
  });

  it('is used for fenced blocks in rendered markdown', () => {
    const lines = renderMarkdown('```ts\nconst x = 1;\n```', 40, 'dark');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('\x1b[35mconst\x1b[39m');
    expect(stripAnsi(lines[0]!)).toBe('│ const x = 1;');
  });

  it('colours a fenced block only once its closing fence has arrived (an open one is still streaming)', () => {
    const open = renderMarkdown('```ts\nconst x = 1;\n', 40, 'dark');
    expect(open.join('')).not.toContain('\x1b[35m');
    expect(fenceClosed('```ts\nconst x = 1;\n```\n')).toBe(true);
    expect(fenceClosed('~~~ts\na\n~~~')).toBe(true);
    expect(fenceClosed('````ts\na\n```')).toBe(false);
    expect(fenceClosed('```ts\na\n``')).toBe(false);
    expect(fenceClosed('```ts')).toBe(false);
  });
});
