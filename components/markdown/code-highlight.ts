import hljs, { type LanguageFn } from 'highlight.js/lib/core.js';
import { createTheme, type ColorToken } from '../theme/theme.js';
import { BUNDLED_LANGUAGES } from './hljs-bundled.js';
import { LANGUAGES } from './hljs-catalogue.js';
import type { MarkdownTheme } from './markdown-styles.js';
import { carryStyles } from './sgr-carry.js';

// Syntax colours for fenced code with a language, from highlight.js 10. Only the common languages
// are bundled with the markdown engine (hljs-bundled.ts), each registered the first time a block
// names it; all ~190 cost ~60 ms of the engine's import. Any other language highlight.js knows
// (hljs-catalogue.ts) is imported the first time a block names it: that block is drawn plain, and
// once the language is in, listeners (`onLanguagesLoaded`) are told, so the transcript renders it
// again, coloured.
// Colours come from the app's palette through semantic tokens; NO_COLOR (theme 'none') gets none.
// Blocks without a language stay plain: guessing one runs every grammar (slow, and often wrong).

// A class is looked up by its first word, hljs-meta-keyword as meta, as cli-highlight (which did
// this before) read them; so hyphenated classes (selector-tag, meta-string, ...) take their first
// word's colour or none.
const TOKEN_COLORS: Readonly<Record<string, ColorToken>> = {
  keyword: 'running',
  literal: 'running',
  doctag: 'running',
  built_in: 'accent',
  type: 'accent',
  class: 'accent',
  title: 'accent',
  section: 'accent',
  string: 'success',
  regexp: 'success',
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
  name: 'user',
  tag: 'user',
};

type Style = (text: string) => string;

/** A foreground colour that survives nested tokens: inner resets are followed by this colour again. */
function foreground(code: string): Style {
  const open = `\x1b[${code}m`;
  return (text) => (text === '' ? text : `${open}${text.replaceAll('\x1b[39m', `\x1b[39m${open}`)}\x1b[39m`);
}

const palettes = new Map<MarkdownTheme, ReadonlyMap<string, Style>>();

function palette(theme: MarkdownTheme): ReadonlyMap<string, Style> {
  let out = palettes.get(theme);
  if (!out) {
    const colors = createTheme(theme === 'light' ? 'light' : 'dark', {}).colors;
    const styles = new Map<string, Style>();
    for (const [cls, token] of Object.entries(TOKEN_COLORS)) {
      const code = colors[token];
      if (code) styles.set(cls, foreground(code));
    }
    out = styles;
    palettes.set(theme, out);
  }
  return out;
}

const SPAN = /<span class="([^"]*)">|<\/span>|[^<]+|</g;
const ENTITY = /&(amp|lt|gt|quot|#x27);/g;
const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'" };

/**
 * highlight.js's HTML as SGR colours. A span's text, nested spans included, takes its class's
 * colour; a span without an `hljs-` class (an embedded language) gives its text none.
 */
function colorize(html: string, styles: ReadonlyMap<string, Style>): string {
  const stack: { style: Style | undefined; text: string }[] = [{ style: undefined, text: '' }];
  const close = (): void => {
    const span = stack.pop();
    const parent = stack.at(-1);
    if (span && parent) parent.text += span.style ? span.style(span.text) : span.text;
  };
  for (const [piece, cls] of html.matchAll(SPAN)) {
    const top = stack.at(-1);
    if (!top) break;
    if (cls !== undefined) {
      const token = /hljs-(\w+)/.exec(cls)?.[1];
      stack.push({ style: token === undefined ? undefined : styles.get(token), text: '' });
    } else if (piece === '</span>') {
      if (stack.length > 1) close();
    } else top.text += piece.replace(ENTITY, (_, name: string) => ENTITIES[name] ?? '');
  }
  while (stack.length > 1) close();
  return stack[0]?.text ?? '';
}

// Languages registered in highlight.js; imports of the others, started or failed.
const registered = new Set<string>();
const imports = new Map<string, Promise<LanguageFn>>();
const failed = new Set<string>();

let names: Map<string, string> | undefined;

/** The language a fence's word names (by name or alias, any case), if highlight.js has it. */
function languageNamed(word: string): string | undefined {
  if (!names) {
    names = new Map();
    for (const [name, entry] of Object.entries(LANGUAGES)) {
      names.set(name, name);
      for (const alias of entry.aliases ?? []) names.set(alias, name);
    }
  }
  return names.get(word.toLowerCase());
}

const neededCache = new Map<string, readonly string[]>();

/**
 * `name` and every language it embeds, transitively (highlight.js looks those up while it runs),
 * in the catalogue's order. With these registered a block comes out as with all of them.
 */
function needed(name: string): readonly string[] {
  let out = neededCache.get(name);
  if (!out) {
    const seen = new Set<string>();
    const visit = (n: string): void => {
      if (seen.has(n)) return;
      seen.add(n);
      for (const embedded of LANGUAGES[n]?.embeds ?? []) {
        // '*': an embedded part whose language is guessed among all of them.
        if (embedded === '*') for (const any of Object.keys(LANGUAGES)) visit(any);
        else visit(embedded);
      }
    };
    visit(name);
    out = Object.keys(LANGUAGES).filter((n) => seen.has(n));
    neededCache.set(name, out);
  }
  return out;
}

function bundled(name: string): LanguageFn | undefined {
  return Object.hasOwn(BUNDLED_LANGUAGES, name) ? BUNDLED_LANGUAGES[name] : undefined;
}

function register(name: string, language: LanguageFn): void {
  if (registered.has(name)) return;
  hljs.registerLanguage(name, language);
  registered.add(name);
}

const ready = new Set<string>();

/**
 * True when `name`'s blocks can be highlighted now. A bundled language is registered here, the
 * first time a block asks (running its definition is what costs: ~10 ms for all bundled ones).
 */
function isReady(name: string): boolean {
  if (ready.has(name)) return true;
  const languages = needed(name);
  if (!languages.every((n) => registered.has(n) || bundled(n))) return false;
  for (const n of languages) {
    const language = bundled(n);
    if (language) register(n, language);
  }
  ready.add(name);
  return true;
}

function importLanguage(name: string): Promise<LanguageFn> {
  let pending = imports.get(name);
  if (!pending) {
    const load = LANGUAGES[name]?.load;
    pending = load
      ? load().then(
          (module) => module.default,
          (error: unknown) => {
            failed.add(name);
            throw error;
          },
        )
      : Promise.reject(new Error(`highlight.js language ${name} cannot be imported`));
    imports.set(name, pending);
  }
  return pending;
}

/**
 * Imports and registers the language a fence word names, with what it embeds. Resolves to true
 * once its blocks are coloured, false when highlight.js does not know it or it failed to load.
 */
export async function loadLanguage(word: string): Promise<boolean> {
  const name = languageNamed(word);
  if (!name) return false;
  const missing = needed(name).filter((n) => !registered.has(n));
  const results = await Promise.allSettled(missing.map(async (n) => bundled(n) ?? importLanguage(n)));
  // In the catalogue's order, highlight.js's own (htmlbars, for one, reads whether handlebars is in).
  missing.forEach((n, i) => {
    const result = results[i];
    if (result?.status === 'fulfilled') register(n, result.value);
  });
  return isReady(name);
}

const listeners = new Set<() => void>();
const requests = new Map<string, Promise<boolean>>();
let drawnPlain = false;

/** Calls `listener` when languages that blocks were drawn plain for have loaded; returns an unsubscribe. */
export function onLanguagesLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function request(name: string, plain: boolean): void {
  if (plain) drawnPlain = true;
  if (requests.has(name)) return;
  const loaded = loadLanguage(name)
    .catch(() => false)
    .finally(() => {
      requests.delete(name);
      // One notice for languages asked for together (one render): each renders the transcript again.
      if (requests.size > 0 || !drawnPlain) return;
      drawnPlain = false;
      for (const listener of [...listeners]) listener();
    });
  requests.set(name, loaded);
}

function fenceWord(info: string | undefined): string | undefined {
  return info?.trim().split(/\s+/)[0] || undefined;
}

/**
 * Starts loading the language of a block still streaming (```rb title="x" -> ruby), so it is
 * usually in by the time the block closes and is coloured.
 */
export function prefetchLanguage(info: string | undefined): void {
  const word = fenceWord(info);
  const name = word === undefined ? undefined : languageNamed(word);
  if (name && !isReady(name) && !needed(name).some((n) => failed.has(n))) request(name, false);
}

/** The language to highlight a fence's word with now; a known one not yet loaded is requested. */
function languageOf(info: string | undefined): string | undefined {
  const word = fenceWord(info);
  const name = word === undefined ? undefined : languageNamed(word);
  if (!name) return undefined;
  if (isReady(name)) return name;
  if (!needed(name).some((n) => failed.has(n))) request(name, true);
  return undefined;
}

/**
 * True when a fenced block's closing fence has arrived. While an answer streams, an open block is
 * re-rendered on every update; it is coloured once, when complete (highlighting cost ~3.5x a plain
 * render: 33 ms against 9 ms of CPU for 300 lines).
 */
export function fenceClosed(raw: string): boolean {
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(raw)?.[1];
  if (!open) return false;
  const lines = raw.replace(/\n+$/, '').split('\n');
  const last = lines.at(-1);
  if (lines.length < 2 || last === undefined) return false;
  const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(last)?.[1];
  return close !== undefined && close[0] === open[0] && close.length >= open.length;
}

/**
 * The code's lines, coloured when the fence names a known language and the theme has colour.
 * Each line closes its styles and the next reopens them, so a row can be repainted alone.
 */
export function highlightCode(code: string, info: string | undefined, theme: MarkdownTheme): string[] {
  const language = theme === 'none' ? undefined : languageOf(info);
  if (!language) return code.split('\n');
  try {
    const html = hljs.highlight(code, { language, ignoreIllegals: true }).value;
    return carryStyles(colorize(html, palette(theme)).split('\n'));
  } catch {
    return code.split('\n');
  }
}
