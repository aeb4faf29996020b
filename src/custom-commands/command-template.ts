/** Splits arguments as a shell would group words: quotes keep spaces together. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of args.matchAll(re)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3] ?? ''));
  return words;
}

/** The `arguments` field: names for the words in order, as a space-separated string or a list (numbers are not names). */
export function argumentNames(value: unknown): string[] {
  const list = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return list.map((n) => n.trim()).filter((n) => /^[A-Za-z_][\w-]*$/.test(n));
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Fills a command or skill body by Claude Code's documented rules (code.claude.com/docs/en/skills,
 * "Available string substitutions"): `$ARGUMENTS` is the text as typed; `$ARGUMENTS[N]` and its
 * shorthand `$N` the Nth word, counted from 0, quotes grouping words; an index with no word stays
 * as written (`awk '{print $2}'` given one word is left alone); `$name` the word at the position of
 * `name` in the `arguments` field, empty when there is none. One backslash right before a
 * placeholder makes it literal (`\$1.00`); any other backslash is left as it is. Arguments given
 * to a body without `$ARGUMENTS` are appended as `ARGUMENTS: ...`, so they are never lost.
 */
export function fillTemplate(body: string, args: string, names: readonly string[] = []): string {
  const words = splitArguments(args);
  // Longest names first, so `$old-name` is not read as `$old` followed by text.
  const named = [...names].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const namedAlt = named.length > 0 ? `|(${named.join('|')})(?![\\w[])` : '';
  const token = new RegExp(`(\\\\*)\\$(?:ARGUMENTS\\[(\\d+)\\]|(ARGUMENTS)(?!\\w)|(\\d+)(?!\\w)${namedAlt})`, 'g');
  let hasArguments = false;
  const out = body.replace(token, (match: string, slashes: string, indexed?: string, all?: string, short?: string, name?: string) => {
    const placeholder = match.slice(slashes.length);
    if (slashes.length === 1) return placeholder;
    let value: string | undefined;
    if (all !== undefined) value = args;
    else if (indexed !== undefined || short !== undefined) value = words[Number(indexed ?? short)];
    else if (name !== undefined) value = words[names.indexOf(name)] ?? '';
    if (all !== undefined || indexed !== undefined) hasArguments = true;
    return value === undefined ? match : `${slashes}${value}`;
  });
  return !hasArguments && args.trim() !== '' ? `${out}\n\nARGUMENTS: ${args}` : out;
}
