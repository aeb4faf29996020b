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
  const document = parseDocument(html);
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  let base = pageUrl;
  try {
    if (baseHref) base = new URL(baseHref, pageUrl).href;
  } catch {
    base = pageUrl; // a broken <base> is ignored, as browsers do
  }
  absolutize(document, base);
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  // Readability changes the document it reads, so it gets a copy and the fallback keeps the original.
  const article = new Readability(parseDocument(document.toString()), { charThreshold: ARTICLE_CHARS }).parse();
  if (article?.content && (article.textContent ?? '').trim().length >= ARTICLE_CHARS) {
    const body = parseDocument(`<!doctype html><html><body>${article.content}</body></html>`).body;
    if (body) return { title: (article.title ?? '').trim() || title, markdown: toMarkdown(body) };
  }
  for (const el of document.querySelectorAll('header, footer, nav, aside, [role=navigation], [role=banner]')) el.remove();
  return { title, markdown: toMarkdown(document.body ?? document.documentElement) };
}
