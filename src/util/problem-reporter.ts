/** A problem the user should see: a file cairn cannot read or use, named in the message. */
export type ReportProblem = (message: string) => void;

/**
 * Reports each distinct problem once: stores are read on every turn, and a cursor that stays
 * unreadable should be said once, not every turn. Without a sink, problems are kept for `seen`.
 */
export function createProblemReporter(sink?: ReportProblem): ReportProblem & { readonly seen: readonly string[] } {
  const seen: string[] = [];
  const report = (message: string): void => {
    if (seen.includes(message)) return;
    seen.push(message);
    sink?.(message);
  };
  return Object.assign(report, { seen });
}
