import os from 'node:os';
import { fileURLToPath } from 'node:url';

// Terminals paste a dropped file's path: plain (`/home/me/shot.png`), quoted (`'/home/me/my shot.png'`,
// GNOME; `"..."`), with escaped spaces (`/Users/me/my\ shot.png`, macOS), or as a `file://` URL (some
// Linux terminals). Several dropped files come separated by spaces or lines.

const ATTACHABLE = /\.(png|jpe?g|gif|webp|pdf)$/i;
/** Only what looks like a path a terminal would paste: absolute, home, explicitly relative, or a file URL. */
const PATH_LIKE = /^(\/|~\/|\.\.?\/|file:\/\/)/;

/** Splits a paste into words the way a shell would for these forms: quotes group, a backslash escapes. */
function words(text: string): string[] | undefined {
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charAt(i);
    if (quote) {
      if (ch === quote) quote = undefined;
      else word = (word ?? '') + ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= '';
    } else if (ch === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i];
    } else if (/\s/.test(ch)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (quote) return undefined;
  if (word !== undefined) out.push(word);
  return out;
}

function toPath(word: string): string | undefined {
  if (word.startsWith('file://')) {
    try {
      return fileURLToPath(word);
    } catch {
      return undefined;
    }
  }
  return word.startsWith('~/') ? `${os.homedir()}${word.slice(1)}` : word;
}

/**
 * The files a paste names when it is nothing but paths to images or PDFs (a file dropped on the
 * terminal); undefined for anything else, which stays text.
 */
export function droppedPaths(pasted: string): string[] | undefined {
  const all = words(pasted.trim());
  if (!all || all.length === 0) return undefined;
  const paths: string[] = [];
  for (const word of all) {
    if (!PATH_LIKE.test(word) || !ATTACHABLE.test(word)) return undefined;
    const p = toPath(word);
    if (p === undefined) return undefined;
    paths.push(p);
  }
  return paths;
}
