import type { LineIndex } from '../transcript/line-index.js';

/**
 * What the transcript last drew: the page size and line positions the scroll and selection
 * keys need. Written by the Transcript after each render; a plain object, not state, because
 * nothing re-renders from it.
 */
export interface ViewMetrics {
  height: number;
  total: number;
  index: LineIndex | undefined;
  /** The open full view: its page height and its lines as plain text (for search). */
  viewer: { height: number; lines: readonly string[] } | undefined;
}

export function createViewMetrics(): ViewMetrics {
  return { height: 1, total: 0, index: undefined, viewer: undefined };
}
