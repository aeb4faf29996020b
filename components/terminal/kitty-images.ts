// kitty's graphics protocol with Unicode placeholders (https://sw.kovidgoyal.net/kitty/graphics-protocol/):
// the picture is sent once, out of band, as a virtual placement; the transcript then shows it
// with ordinary text cells (U+10EEEE, the row and column as combining marks, the image id as the
// foreground colour). Those cells go through the frame writer like any text, so diffing,
// scrolling and overwriting them need nothing special: where the cells are gone, so is the picture.

/** The terminals whose image protocol cairn speaks; iTerm2's (and WezTerm's) is not drawn yet. */
export type ImageProtocol = 'kitty';

/** kitty itself (TERM=xterm-kitty, or its window id in the environment); not inside tmux, which would need passthrough. */
export function detectImageProtocol(env: NodeJS.ProcessEnv): ImageProtocol | undefined {
  if (env['TMUX']) return undefined;
  if (env['TERM'] === 'xterm-kitty' || env['KITTY_WINDOW_ID']) return 'kitty';
  return undefined;
}

const PLACEHOLDER = String.fromCodePoint(0x10eeee);
/** The first entries of kitty's rowcolumn-diacritics.txt: the n-th mark says row (or column) n. */
const DIACRITICS = [
  0x0305, 0x030d, 0x030e, 0x0310, 0x0312, 0x033d, 0x033e, 0x033f, 0x0346, 0x034a, 0x034b, 0x034c, 0x0350, 0x0351, 0x0352, 0x0357,
  0x035b, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369, 0x036a, 0x036b, 0x036c, 0x036d, 0x036e, 0x036f, 0x0483, 0x0484,
].map((c) => String.fromCodePoint(c));
/** The largest thumbnail, in cells, the diacritics above can address. */
export const MAX_THUMBNAIL_CELLS = DIACRITICS.length;
/** Base64 bytes per escape: the protocol's limit for one chunk. */
const CHUNK = 4096;

/**
 * Sends a PNG (base64) as image `id` (1-255) with a virtual placement `columns` x `rows` cells:
 * `a=T` transmit and place, `f=100` PNG, `U=1` shown only where placeholder cells are, `q=2` no
 * replies (they would arrive as typed input). Chunked as the protocol asks (`m=1` but the last).
 */
export function kittyTransmit(id: number, png: string, columns: number, rows: number): string {
  const head = `a=T,f=100,t=d,U=1,i=${id},c=${columns},r=${rows},q=2`;
  const chunks = png.match(new RegExp(`.{1,${CHUNK}}`, 'gs')) ?? [''];
  if (chunks.length === 1) return `\x1b_G${head};${chunks[0]}\x1b\\`;
  return chunks.map((chunk, i) => `\x1b_G${i === 0 ? `${head},` : ''}m=${i < chunks.length - 1 ? 1 : 0};${chunk}\x1b\\`).join('');
}

/** Frees image `id` and its placements (uppercase `I`: the data too). */
export function kittyDelete(id: number): string {
  return `\x1b_Ga=d,d=I,i=${id},q=2\x1b\\`;
}

/**
 * The text rows that show image `id`: each cell the placeholder with its row and column marks,
 * every cell marked (a diffing writer may skip cells, so none relies on its left neighbour), the
 * id as a 256-colour foreground.
 */
export function kittyPlaceholderRows(id: number, columns: number, rows: number): string[] {
  const out: string[] = [];
  for (let r = 0; r < Math.min(rows, MAX_THUMBNAIL_CELLS); r++) {
    let cells = '';
    for (let c = 0; c < Math.min(columns, MAX_THUMBNAIL_CELLS); c++) cells += `${PLACEHOLDER}${DIACRITICS[r] ?? ''}${DIACRITICS[c] ?? ''}`;
    out.push(`\x1b[38;5;${id}m${cells}\x1b[39m`);
  }
  return out;
}

/** Cells for a thumbnail `rows` tall of a `width` x `height` picture (a cell is about twice as tall as wide), at most `maxColumns` wide. */
export function thumbnailCells(width: number, height: number, rows: number, maxColumns: number): { columns: number; rows: number } {
  const columns = Math.max(1, Math.min(maxColumns, MAX_THUMBNAIL_CELLS, Math.round((rows * 2 * width) / height)));
  return { columns, rows: Math.min(rows, MAX_THUMBNAIL_CELLS) };
}
