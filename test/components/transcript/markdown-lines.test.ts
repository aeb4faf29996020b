import { beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdown } from '../../../components/markdown/render-markdown.js';
import { createMarkdownStream } from '../../../components/markdown/streaming-markdown.js';
import { clipLine, textWidth } from '../../../components/theme/ansi.js';
import { createItemLines } from '../../../components/transcript/item-lines.js';
import { createMarkdownLines } from '../../../components/transcript/markdown-lines.js';
import { createTheme } from '../../../components/theme/theme.js';
import { generateMarkdown } from '../../../src/providers/offline-markdown.js';
import type { TranscriptItem } from '../../../components/store/types.js';

beforeAll(async () => {
  await loadMarkdown();
});

describe('a streaming answer in the transcript', () => {
  it('every line fits the pane, an unfinished table wider than it included', () => {
    const lines = createItemLines(createMarkdownLines());
    const theme = createTheme('dark', { FORCE_COLOR: '1' });
    const row = `| ${'wide cell '.repeat(6)} | ${'another wide cell '.repeat(4)} |`;
    const text = `Intro paragraph.\n\n${row}\n| - | - |\n${row}\n`;
    const item: TranscriptItem = { kind: 'assistant', id: 'a1', text, streaming: true };
    const out = lines.body(item, 40, theme);
    expect(out.some((l) => l.includes('wide cell'))).toBe(true);
    for (const l of out) expect(textWidth(l)).toBeLessThanOrEqual(40);
  });

  it('clips a finished block once, not on every frame (frame cost does not grow with the answer)', () => {
    let clipped = 0;
    const counting = (line: string, width: number): string => {
      clipped++;
      return clipLine(line, width);
    };
    const text = generateMarkdown(1500, 7);
    const s = createMarkdownStream(60, 'dark', { clip: counting });
    let frames = 0;
    for (let i = 0; i < text.length; i += 40) {
      s.append(text.slice(i, i + 40));
      expect(s.lines().length).toBeGreaterThan(0);
      frames++;
    }
    const total = s.lines().length;
    // Re-clipping every line on every frame would be about frames * total / 2 calls; what is left
    // is each finished line once and the unfinished part's few lines per frame.
    expect(clipped).toBeGreaterThanOrEqual(total);
    expect(clipped).toBeLessThan((frames * total) / 10);
  });
});
