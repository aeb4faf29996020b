import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { pageContent } from '../../src/web/page-content.js';

// Time to readable Markdown for a 1 MB HTML page: the recorded news article's body repeated
// (paragraphs, headings, links, an ad and a sidebar each time) until the page is 1 MB, then
// decoded, parsed (linkedom), reduced to the article (Readability) and converted (Turndown).

const here = path.dirname(fileURLToPath(import.meta.url));
const fixture = (name: string): string => readFileSync(path.join(here, '..', '..', '..', 'test', 'fixtures', 'web', name), 'utf8');

export async function benchHtmlToMarkdown(targetBytes = 1024 * 1024, runs = 5): Promise<{ bytes: number; medianMs: number; chars: number }> {
  const article = fixture('news-article.html');
  const body = /<main>([\s\S]*)<\/main>/.exec(article)?.[1] ?? '';
  let main = '';
  for (let i = 0; Buffer.byteLength(main) < targetBytes; i++) main += body.replace(/<h1>/, `<h2 id="part-${i}">`).replace(/<\/h1>/, '</h2>');
  const page = Buffer.from(article.replace(/<main>[\s\S]*<\/main>/, `<main>${main}</main>`));
  const times: number[] = [];
  let chars = 0;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const content = await pageContent(page, 'text/html; charset=utf-8', 'https://news.example.com/a');
    times.push(performance.now() - start);
    chars = content.ok ? content.text.length : 0;
  }
  times.sort((a, b) => a - b);
  return { bytes: page.length, medianMs: times[Math.floor(times.length / 2)] ?? 0, chars };
}
