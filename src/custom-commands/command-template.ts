/** Splits arguments as a shell would group words: quotes keep spaces together. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of args.matchAll(re)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3] ?? ''));
  return words;
}

/**
 * Fills a command or skill body: `$ARGUMENTS` is the argument text as typed, `$1`..`$9` its words
 * (1-based; a missing one is empty), `\$` a literal dollar. Arguments given to a body that names
 * none are appended as `ARGUMENTS: ...`, so they are never lost.
 */
export function fillTemplate(body: string, args: string): string {
  const words = splitArguments(args);
  let used = false;
  const out = body.replace(/\\\$|\$ARGUMENTS\b|\$([1-9])(?![0-9])/g, (token, digit: string | undefined) => {
    if (token === '\\$') return '$';
    used = true;
    if (token === '$ARGUMENTS') return args;
    return words[Number(digit) - 1] ?? '';
  });
  return !used && args.trim() !== '' ? `${out}\n\nARGUMENTS: ${args}` : out;
}
