import { performance } from 'node:perf_hooks';
import { renderMarkdown } from '../../components/markdown/render-markdown.js';
import { createMarkdownStream } from '../../components/markdown/streaming-markdown.js';
import { chunkText, generateMarkdown } from '../../src/providers/offline-markdown.js';

export type MarkdownStreamBench = { fullReparseMs: number; incrementalMs: number; updates: number; chars: number };

export type MarkdownStreamBenchOptions = { words?: number; deltaChars?: number; width?: number };

/**
 * A generated answer (default ~5000 words) streamed in 4-character deltas, rendered after every
 * delta: once by re-rendering the whole text each time, once through the incremental stream.
 * Call `loadMarkdown()` first to measure real markdown rather than the plain fallback.
 * The whole-text pass is quadratic: at the defaults it runs for minutes, which is the point.
 */
export function benchMarkdownStream(options: MarkdownStreamBenchOptions = {}): MarkdownStreamBench {
  const { words = 5000, deltaChars = 4, width = 100 } = options;
  const source = generateMarkdown(words);
  const deltas = chunkText(source, deltaChars);

  let text = '';
  let start = performance.now();
  for (const d of deltas) {
    text += d;
    renderMarkdown(text, width, 'dark');
  }
  const fullReparseMs = performance.now() - start;

  const stream = createMarkdownStream(width, 'dark');
  start = performance.now();
  for (const d of deltas) {
    stream.append(d);
    stream.lines();
  }
  const incrementalMs = performance.now() - start;

  return { fullReparseMs, incrementalMs, updates: deltas.length, chars: source.length };
}
