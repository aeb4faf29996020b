import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { parseDocument } from './dom.js';
import type { DomDocument, DomElement } from './dom.js';

export interface PageMarkdown {
  title: string;
  markdown: string;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'iframe', 'nav', 'form', 'button', 'svg', 'canvas', 'template']);

/** Readability's minimum article length, in characters; shorter pages are taken whole. */
const ARTICLE_CHARS = 200;

/** Turns every link and image in the tree absolute against the page's URL (or its <base>). */
function absolutize(root: DomDocument, base: string): void {
  for (const [selector, attr] of [['a[href]', 'href'], ['img[src]', 'src']] as const) {
    for (const el of root.querySelectorAll(selector)) {
      const value = el.getAttribute(attr);
      if (value === null) continue;
      try {
        el.setAttribute(attr, new URL(value, base).href);
      } catch {
        el.removeAttribute(attr); // an unparseable link would only mislead
      }
    }
  }
}

function toMarkdown(node: DomElement): string {
  // Turndown walks any DOM that has the standard node members; linkedom's nodes do.
  return turndown.turndown(node).replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * Readable Markdown from an HTML page: the article Readability finds (navigation, ads, scripts and
 * styles dropped), or, for a page that is not an article, its body without scripts, styles and
 * navigation. Links stay absolute.
 */
export function htmlToMarkdown(html: string, pageUrl: string): PageMarkdown {
  const parse = (): DomDocument => {
    const doc = parseDocument(html);
    absolutize(doc, baseOf(doc, pageUrl));
    return doc;
  };
  const document = parse();
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  // Readability changes the document it reads; a page that is not an article is parsed again for the fallback.
  const article = new Readability(document, { charThreshold: ARTICLE_CHARS }).parse();
  if (article?.content && (article.textContent ?? '').trim().length >= ARTICLE_CHARS) {
    const body = parseDocument(`<!doctype html><html><body>${article.content}</body></html>`).body;
    if (body) return { title: (article.title ?? '').trim() || title, markdown: toMarkdown(body) };
  }
  const whole = parse();
  for (const el of whole.querySelectorAll('header, footer, nav, aside, [role=navigation], [role=banner]')) el.remove();
  return { title, markdown: toMarkdown(whole.body ?? whole.documentElement) };
}

/** The page's URL, or its <base> if it has a usable one. */
function baseOf(document: DomDocument, pageUrl: string): string {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  try {
    return baseHref ? new URL(baseHref, pageUrl).href : pageUrl;
  } catch {
    return pageUrl; // a broken <base> is ignored, as browsers do
  }
}
