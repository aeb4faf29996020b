// A terminal screen captured with its styles (tmux capture-pane -e) drawn as SVG: one text row per
// line, a tspan per run of one style, cells on a fixed grid so wide characters take two.
import { charWidth } from '../../components/theme/ansi.js';

interface Style {
  fg?: string;
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

const BASE16 = ['#1e1e1e', '#e06c75', '#98c379', '#e5c07b', '#61afef', '#c678dd', '#56b6c2', '#d7dae0', '#5c6370', '#ff7b86', '#b5e890', '#ffd68a', '#7cc4ff', '#de8ef5', '#73d0db', '#ffffff'];
const DEFAULT_FG = '#d7dae0';
const DEFAULT_BG = '#16181d';

function color256(n: number): string {
  if (n < 16) return BASE16[n] ?? DEFAULT_FG;
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v},${v},${v})`;
  }
  const i = n - 16;
  const level = (x: number): number => (x === 0 ? 0 : 55 + x * 40);
  return `rgb(${level(Math.floor(i / 36))},${level(Math.floor(i / 6) % 6)},${level(i % 6)})`;
}

/** Applies one SGR parameter list to `style`. */
function applySgr(style: Style, params: number[]): Style {
  let s = { ...style };
  for (let i = 0; i < params.length; i++) {
    const p = params[i] ?? 0;
    if (p === 0) s = {};
    else if (p === 1) s.bold = true;
    else if (p === 2) s.dim = true;
    else if (p === 3) s.italic = true;
    else if (p === 4) s.underline = true;
    else if (p === 7) s.inverse = true;
    else if (p === 22) s.bold = s.dim = false;
    else if (p === 23) s.italic = false;
    else if (p === 24) s.underline = false;
    else if (p === 27) s.inverse = false;
    else if (p >= 30 && p <= 37) s.fg = BASE16[p - 30];
    else if (p >= 90 && p <= 97) s.fg = BASE16[p - 90 + 8];
    else if (p >= 40 && p <= 47) s.bg = BASE16[p - 40];
    else if (p >= 100 && p <= 107) s.bg = BASE16[p - 100 + 8];
    else if (p === 39) delete s.fg;
    else if (p === 49) delete s.bg;
    else if ((p === 38 || p === 48) && params[i + 1] === 5) {
      const c = color256(params[i + 2] ?? 0);
      if (p === 38) s.fg = c;
      else s.bg = c;
      i += 2;
    } else if ((p === 38 || p === 48) && params[i + 1] === 2) {
      const c = `rgb(${params[i + 2] ?? 0},${params[i + 3] ?? 0},${params[i + 4] ?? 0})`;
      if (p === 38) s.fg = c;
      else s.bg = c;
      i += 4;
    }
  }
  return s;
}

const escapeXml = (t: string): string => t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

interface Cell {
  ch: string;
  style: Style;
  width: number;
}

/** The captured lines as cells, styles resolved. */
export function parseStyledScreen(text: string): Cell[][] {
  const rows: Cell[][] = [];
  let style: Style = {};
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const row: Cell[] = [];
    let i = 0;
    while (i < line.length) {
      if (line[i] === '\x1b') {
        const m = /^\x1b\[([\d;]*)m/.exec(line.slice(i));
        if (m) {
          style = applySgr(style, (m[1] || '0').split(';').map(Number));
          i += m[0].length;
          continue;
        }
        const other = /^\x1b(?:\[[\d;?]*[A-Za-z]|\][^\x07]*\x07|.)/.exec(line.slice(i));
        i += other ? other[0].length : 1;
        continue;
      }
      const cp = line.codePointAt(i) ?? 32;
      const ch = String.fromCodePoint(cp);
      row.push({ ch, style, width: Math.max(1, charWidth(cp)) });
      i += ch.length;
    }
    rows.push(row);
  }
  return rows;
}

/** An SVG of the screen, `columns` x `rows` cells, with a title bar like a terminal window. */
export function screenToSvg(text: string, opts: { columns: number; rows: number; title?: string }): string {
  const cw = 8.4;
  const ch = 17;
  const top = 28;
  const width = Math.ceil(opts.columns * cw + 20);
  const height = Math.ceil(opts.rows * ch + top + 12);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="14">`,
    `<rect width="100%" height="100%" rx="8" fill="${DEFAULT_BG}"/>`,
    `<circle cx="16" cy="14" r="5" fill="#ff5f56"/><circle cx="32" cy="14" r="5" fill="#ffbd2e"/><circle cx="48" cy="14" r="5" fill="#27c93f"/>`,
    opts.title ? `<text x="${width / 2}" y="18" fill="#8a94a3" font-size="12" text-anchor="middle">${escapeXml(opts.title)}</text>` : '',
  ];
  parseStyledScreen(text).forEach((row, y) => {
    let col = 0;
    const baseline = top + y * ch + ch - 4;
    for (const cell of row) {
      const fg0 = cell.style.fg ?? DEFAULT_FG;
      const bg0 = cell.style.bg;
      const [fg, bg] = cell.style.inverse ? [bg0 ?? DEFAULT_BG, fg0] : [fg0, bg0];
      const x = 10 + col * cw;
      if (bg) out.push(`<rect x="${x.toFixed(1)}" y="${top + y * ch}" width="${(cell.width * cw).toFixed(1)}" height="${ch}" fill="${bg}"/>`);
      if (cell.ch !== ' ') {
        const attrs = [`x="${x.toFixed(1)}"`, `y="${baseline}"`, `fill="${fg}"`];
        if (cell.style.bold) attrs.push('font-weight="bold"');
        if (cell.style.dim) attrs.push('opacity="0.6"');
        if (cell.style.italic) attrs.push('font-style="italic"');
        if (cell.style.underline) attrs.push('text-decoration="underline"');
        out.push(`<text ${attrs.join(' ')}>${escapeXml(cell.ch)}</text>`);
      }
      col += cell.width;
    }
  });
  out.push('</svg>');
  return `${out.filter(Boolean).join('\n')}\n`;
}
