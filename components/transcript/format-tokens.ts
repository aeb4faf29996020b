/** 950, 12.3k, 200k: token counts as the status bar and reports show them. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  return n < 100_000 ? `${(n / 1000).toFixed(1)}k` : `${Math.round(n / 1000)}k`;
}
