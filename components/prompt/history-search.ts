import type { Dialog } from '../store/types.js';

export type HistorySearch = Extract<Dialog, { kind: 'historySearch' }>;

/** Ctrl+R: a search over the prompts sent before, the newest first, the draft left as it is. */
export function openHistorySearch(history: readonly string[]): HistorySearch {
  return { kind: 'historySearch', history: [...history], query: '', index: 0 };
}

/** Earlier prompts holding the query (case-insensitive), newest first, each once. */
export function historyMatches(search: Pick<HistorySearch, 'history' | 'query'>): string[] {
  const q = search.query.toLowerCase();
  const seen = new Set<string>();
  const out: string[] = [];
  for (let i = search.history.length - 1; i >= 0; i--) {
    const prompt = search.history[i];
    if (prompt === undefined || seen.has(prompt) || !prompt.toLowerCase().includes(q)) continue;
    seen.add(prompt);
    out.push(prompt);
  }
  return out;
}

export function selectedMatch(search: HistorySearch): string | undefined {
  const matches = historyMatches(search);
  return matches[Math.min(search.index, matches.length - 1)];
}
