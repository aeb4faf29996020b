/** 950, 12.3k, 200k: token counts as the status bar and reports show them. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  return n < 100_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`;
}

/** 200k, 1M, 32.8k: a context window's size, the way model pages write it ("1M", not "1000k"). */
export function formatContext(tokens: number | undefined): string {
  if (tokens === undefined) return '?';
  if (tokens >= 1_000_000) return `${Number((tokens / 1_000_000).toFixed(1))}M`;
  if (tokens >= 100_000 || tokens % 1000 === 0) return `${Math.round(tokens / 1000)}k`;
  return `${Number((tokens / 1000).toFixed(1))}k`;
}
