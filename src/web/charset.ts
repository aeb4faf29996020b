import { TextDecoder } from 'node:util';

// Which character set a fetched body is in: the Content-Type header, then a byte-order mark, then a
// <meta> in the first bytes, then UTF-8 if the bytes are valid UTF-8, else the legacy CJK set that
// reads them with the fewest impossible characters (Node's full-ICU TextDecoder knows gbk, gb18030,
// shift_jis, euc-kr and big5).

/** The charset named in a Content-Type value, lower-case, if any. */
export function charsetFromContentType(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '');
  return m?.[1]?.toLowerCase();
}

function charsetFromMeta(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 4096).toString('latin1');
  const m = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(head);
  return m?.[1]?.toLowerCase();
}

function charsetFromBom(bytes: Buffer): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined; // a label the page made up: the next source decides
  }
}

const LEGACY = ['gb18030', 'shift_jis', 'big5', 'euc-kr'];

/** Characters that a wrong legacy guess produces: replacement characters, half-width katakana, private use. */
function oddities(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    if (c === 0xfffd || (c >= 0xff61 && c <= 0xff9f) || (c >= 0xe000 && c <= 0xf8ff) || (c >= 0x80 && c <= 0x9f)) n++;
  }
  return n;
}

export interface Decoded {
  text: string;
  charset: string;
}

/** The body as text, and the charset it was read in. */
export function decodeBody(bytes: Buffer, contentType: string | undefined, sniffMeta: boolean): Decoded {
  for (const label of [charsetFromContentType(contentType), charsetFromBom(bytes), sniffMeta ? charsetFromMeta(bytes) : undefined]) {
    if (label === undefined) continue;
    const decoder = decoderFor(label);
    if (decoder) return { text: decoder.decode(bytes), charset: decoder.encoding };
  }
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), charset: 'utf-8' };
  } catch {
    // not UTF-8: the legacy guess below
  }
  let best: Decoded = { text: new TextDecoder('windows-1252').decode(bytes), charset: 'windows-1252' };
  let bestScore = Number.POSITIVE_INFINITY;
  for (const label of LEGACY) {
    const text = new TextDecoder(label).decode(bytes);
    const score = oddities(text);
    if (score < bestScore) {
      best = { text, charset: label };
      bestScore = score;
    }
  }
  return best;
}
