import { describe, expect, it } from 'vitest';
import { loadMarkdown, onMarkdownChange } from '../../../components/markdown/render-markdown.js';
import { createViewMetrics } from '../../../components/keys/view-metrics.js';
import { initialState, reduce } from '../../../components/store/reduce.js';
import type { TuiState } from '../../../components/store/types.js';
import { createItemLines } from '../../../components/transcript/item-lines.js';
import { createMarkdownLines } from '../../../components/transcript/markdown-lines.js';
import { TRANSCRIPT_WINDOW, TranscriptPane } from '../../../components/transcript/transcript-pane.js';

function withNotices(state: TuiState, from: number, count: number): TuiState {
  let s = state;
  for (let i = from; i < from + count; i++) s = reduce(s, { type: 'notice', level: 'info', message: `note ${i}` });
  return s;
}

describe('TranscriptPane', () => {
  it('following the bottom, a long session keeps a bounded window laid out (frame cost does not grow with the session)', () => {
    const view = createViewMetrics();
    const pane = new TranscriptPane(createItemLines(createMarkdownLines()), view);
    let state = withNotices(initialState(), 0, 10);
    pane.frame(state, 80, 20, 0, 0);
    for (let n = 10; n < 5000; n += 250) {
      state = withNotices(state, n, 250);
      const frame = pane.frame(state, 80, 20, 0, 0);
      expect(frame.rows.at(-1)).toContain(`note ${n + 249}`);
      expect(view.index?.blocks.length ?? 0).toBeLessThanOrEqual(2 * (2 * TRANSCRIPT_WINDOW + 1));
    }
  });

  it('scrolled up, the window is not trimmed: what is in view stays where it is', () => {
    const view = createViewMetrics();
    const pane = new TranscriptPane(createItemLines(createMarkdownLines()), view);
    let state = withNotices(initialState(), 0, 100);
    pane.frame(state, 80, 20, 0, 0);
    const total = view.total;
    state = { ...state, scroll: { follow: false, top: total - 60, seenTotal: total } };
    const before = pane.frame(state, 80, 20, 0, 0).rows;
    state = withNotices(state, 100, 2 * TRANSCRIPT_WINDOW);
    const after = pane.frame(state, 80, 20, 0, 0).rows;
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
    expect(after.at(-1)).toContain('new output below');
  });
  it('a finished answer whose code block was drawn plain while its language loaded is coloured in the next frame', async () => {
    await loadMarkdown();
    const view = createViewMetrics();
    const pane = new TranscriptPane(createItemLines(createMarkdownLines()), view);
    const state = reduce(initialState(), {
      type: 'event',
      event: { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: '```crystal\nmodule Sq\n  def sq(x) = x * x # "sq"\nend\n```' }] } },
      at: 0,
    });
    const loaded = new Promise<void>((resolve) => {
      const off = onMarkdownChange(() => {
        off();
        resolve();
      });
    });
    const plain = (row: string): string => row.replace(/\x1b\[[0-9;]*m/g, '');
    const code = (rows: string[]): string => rows.find((r) => plain(r).includes('module Sq')) ?? '';
    const before = code(pane.frame(state, 80, 20, 0, 0).rows);
    await loaded;
    const after = code(pane.frame(state, 80, 20, 0, 0).rows);
    expect(plain(after)).toBe(plain(before));
    expect(plain(before)).toContain('module Sq');
    expect(after).not.toBe(before);
  });
});
