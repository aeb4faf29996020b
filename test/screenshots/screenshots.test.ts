// `npm run screenshots`: the app's real screens, the built cairn in tmux on the offline model,
// captured with their styles and drawn as SVG for the README (docs/screenshots/). In the normal
// test run the same scenes are drawn and checked, and nothing is written.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { parseStyledScreen, screenToSvg } from './ansi-svg.js';

const { start } = cairnTerminals();
const SIZE = { columns: 100, rows: 30 };
const FILES = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n', 'notes.md': '# notes\n' };
const write = process.env['CAIRN_WRITE_SCREENSHOTS'] === '1';

function save(name: string, screen: string, title: string): string {
  const svg = screenToSvg(screen, { ...SIZE, title });
  if (write) {
    const dir = path.join(repoRoot, 'docs', 'screenshots');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${name}.svg`), svg);
  }
  return svg;
}

const textOf = (svg: string): string => [...svg.matchAll(/>([^<]*)<\/text>/g)].map((m) => m[1]).join('');

describe('screenshots of the real app', () => {
  it('parallel cards, an inline approval, the slash palette, a subagent tree, a cron notice', async () => {
    const { term } = await start({ files: FILES, ...SIZE });
    term.type('read a.txt and b.txt');
    term.keys('Enter');
    await term.waitForText('Read b.txt');
    const cards = save('parallel-cards', term.styledScreen(), 'cairn: parallel tool cards');
    expect(textOf(cards)).toContain('read_file');

    term.type('write hello to out.txt');
    term.keys('Enter');
    await term.waitForText('Allow write_file?');
    const approval = save('approval', term.styledScreen(), 'cairn: an inline approval');
    expect(textOf(approval)).toContain('Allowwrite_file?');
    term.keys('Escape');
    await term.waitForScreen((s) => !s.includes('Allow write_file?'), 'the approval answered');

    term.type('/');
    await term.waitForText('/help');
    const palette = save('slash-palette', term.styledScreen(), 'cairn: the slash palette');
    expect(textOf(palette)).toContain('/help');
    term.keys('BSpace');
    await term.waitForScreen((s) => !s.includes('/help'), 'the palette closed');

    term.type('use two subagents to read a.txt and b.txt');
    term.keys('Enter');
    await term.waitForScreen((s) => (s.match(/agent/g) ?? []).length >= 2 && s.includes('Ask cairn'), 'two subagents');
    await term.waitForScreen((s) => !/⠋|⠙|⠹|⠸|⠼|⠴|⠦|⠧|⠇|⠏/.test(s), 'subagents done');
    const agents = save('subagents', term.styledScreen(), 'cairn: subagents');
    expect(textOf(agents)).toContain('agent');

    term.type('/cron test check the build');
    term.keys('Enter');
    await term.waitForText('fired');
    const cron = save('cron-notice', term.styledScreen(), 'cairn: a scheduled prompt fires');
    expect(textOf(cron)).toContain('fired');
  }, 90_000);

  it('draws styles and wide characters on the cell grid', () => {
    const rows = parseStyledScreen('\x1b[1;38;5;196mred\x1b[0m 中文x\n\x1b[7minv\x1b[27m');
    expect(rows[0]?.map((c) => c.ch).join('')).toBe('red 中文x');
    expect(rows[0]?.[0]?.style).toMatchObject({ bold: true, fg: 'rgb(255,0,0)' });
    expect(rows[0]?.[4]?.width).toBe(2);
    expect(rows[1]?.[0]?.style.inverse).toBe(true);
    const svg = screenToSvg('a中b', { columns: 10, rows: 1 });
    const xs = [...svg.matchAll(/<text x="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(xs[2]! - xs[1]!).toBeCloseTo(2 * (xs[1]! - xs[0]!)); // the wide character takes two cells
  });
});
