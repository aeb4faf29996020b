// Reads the type checker cannot prove (noUncheckedIndexedAccess) but the code has made sure of:
// an index it has just bounds-checked, a capture group that always takes part in its match.
// If the reasoning is ever wrong, the Error says what was missing instead of a TypeError later on.

/** The item at `index`, which the caller knows is in range; throws an Error naming `what` if not. */
export function itemAt<T>(items: readonly T[], index: number, what: string): T {
  const item = items[index];
  if (item === undefined) throw new Error(`${what}: no item at index ${index} of ${items.length}`);
  return item;
}

/** Capture group `index` of a match, for a group that takes part whenever the pattern matches. */
export function group(match: RegExpMatchArray, index: number): string {
  const text = match[index];
  if (text === undefined) throw new Error(`capture group ${index} is missing from the match ${JSON.stringify(match[0])}`);
  return text;
}
