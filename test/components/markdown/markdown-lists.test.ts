import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { marked } from 'marked';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdown, renderMarkdown } from '../../../components/markdown/render-markdown.js';
import { stripAnsi } from '../../../components/theme/ansi.js';

// Issue 12 item 10: list numbering and nesting follow CommonMark. Each fixture is checked twice:
// against the expected text beside it, and against the structure marked's HTML gives the same
// source (the CommonMark reading: which list each item is in, its depth, its number).
const dir = path.resolve(import.meta.dirname, '../../fixtures/markdown/lists');
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.md')).map((f) => f.slice(0, -3));

beforeAll(async () => {
  await loadMarkdown();
});

interface Entry {
  depth: number;
  marker: string;
  text: string;
}

/** Items from marked's HTML: depth in lists, the number CommonMark gives (or a bullet), first text. */
function fromHtml(html: string): Entry[] {
  const out: Entry[] = [];
  const lists: Array<{ ordered: boolean; next: number }> = [];
  for (const m of html.matchAll(/<(ol|ul)(?: start="(\d+)")?>|<\/(?:ol|ul)>|<li>([^<]*(?:<input[^>]*>)?[^<]*)(?:<p>)?([^<\n]*)/g)) {
    if (m[1]) lists.push({ ordered: m[1] === 'ol', next: m[2] ? Number(m[2]) : 1 });
    else if (m[0].startsWith('</')) lists.pop();
    else {
      const list = lists.at(-1)!;
      const text = `${m[3] ?? ''}${m[4] ?? ''}`.replace(/<input[^>]*>/, '').trim();
      out.push({ depth: lists.length - 1, marker: list.ordered ? String(list.next++) : 'bullet', text });
    }
  }
  return out;
}

/** Items from the terminal lines: depth from indentation, the number shown (or a bullet), first text. */
function fromLines(lines: string[]): Entry[] {
  const out: Entry[] = [];
  const indents: number[] = [];
  for (const line of lines) {
    const m = /^( *)(?:(\d+)[.)]|[•◦▪]) (?:\[[ x]\] )?(.*)$/.exec(line);
    if (!m) continue;
    const indent = m[1]!.length;
    while (indents.length > 0 && indents.at(-1)! > indent) indents.pop();
    if (indents.length === 0 || indents.at(-1)! < indent) indents.push(indent);
    out.push({ depth: indents.length - 1, marker: m[2] ?? 'bullet', text: m[3]!.trim() });
  }
  return out;
}

describe('markdown lists (fixtures in test/fixtures/markdown/lists)', () => {
  it.each(fixtures)('%s', (name) => {
    const source = readFileSync(path.join(dir, `${name}.md`), 'utf8');
    const expected = readFileSync(path.join(dir, `${name}.txt`), 'utf8').replace(/\n$/, '').split('\n');
    const lines = renderMarkdown(source, 60, 'none').map(stripAnsi);
    expect(lines).toEqual(expected);
    const reference = fromHtml(marked.parse(source, { async: false }));
    expect(reference.length).toBeGreaterThan(0);
    expect(fromLines(lines)).toEqual(reference);
  });

  it('wraps a long item under its text, nested or not', () => {
    const lines = renderMarkdown('1. top\n   - a nested item long enough that it has to wrap onto another row', 40, 'none').map(stripAnsi);
    expect(lines).toEqual(['  1. top', '     ◦ a nested item long enough that it', '       has to wrap onto another row']);
  });

  it('shows the colons of inline code in a tight item as colons (marked-terminal marks them *#COLON|*)', () => {
    for (const theme of ['none', 'dark'] as const) {
      const lines = renderMarkdown('- set `key: value` in `a:b`\n- then run `npm run build: all`\n  1. nested `x: y`', 80, theme).map(stripAnsi);
      expect(lines).toEqual(['  • set key: value in a:b', '  • then run npm run build: all', '    1. nested x: y']);
    }
  });
});
