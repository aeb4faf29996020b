import { parseDocument } from '../dom.js';
import type { SearchHit } from './search-types.js';

export type DuckDuckGoPage =
  | { kind: 'results'; hits: SearchHit[] }
  | { kind: 'empty' }
  | { kind: 'captcha' }
  | { kind: 'unreadable' };

const text = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim();

/** The real target of a result link: DuckDuckGo wraps it as `//duckduckgo.com/l/?uddg=<encoded url>`. */
export function unwrapResultUrl(href: string): string | undefined {
  let url: URL;
  try {
    url = new URL(href, 'https://duckduckgo.com/');
  } catch {
    return undefined;
  }
  const target = url.searchParams.get('uddg');
  if (target) return target;
  if (url.hostname.endsWith('duckduckgo.com')) return undefined; // an ad (y.js) or an internal link
  return url.href;
}

/** Reads DuckDuckGo's HTML result page (html.duckduckgo.com/html/): results without ads, or why there are none. */
export function parseDuckDuckGoPage(html: string): DuckDuckGoPage {
  const doc = parseDocument(html);
  if (doc.querySelector('.anomaly-modal__title, #challenge-form, .anomaly-modal__modal')) return { kind: 'captcha' };
  const hits: SearchHit[] = [];
  for (const result of doc.querySelectorAll('.result')) {
    if (result.getAttribute('class')?.includes('result--ad')) continue;
    const link = result.querySelector('.result__a');
    const url = unwrapResultUrl(link?.getAttribute('href') ?? '');
    if (!link || url === undefined) continue;
    hits.push({ title: text(link.textContent), url, snippet: text(result.querySelector('.result__snippet')?.textContent) });
  }
  if (hits.length > 0) return { kind: 'results', hits };
  if (doc.querySelector('.no-results')) return { kind: 'empty' };
  return { kind: 'unreadable' };
}
