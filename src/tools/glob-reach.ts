/** Characters that make a glob segment more than one literal name (an escape too: it is not the name as written). */
const MAGIC = /[*?[\]{}()!+@\\]/;
/** `..` as a whole alternative inside a segment: `..`, `{..,x}`, `@(..|x)`. */
const DOTDOT = /(^|[{,(|])\.\.($|[},)|,])/;

/** Where a glob pattern searches: the directory it can reach (as a tool path, for the permission check) and the rest. */
export type GlobReach = { root: string; rest: string } | { error: string };

/**
 * Splits a pattern into its static base and the wildcard rest, so the permission check judges the place the
 * pattern reaches (`../*` reaches `..`, `/etc/*` reaches `/etc`, `~/x/*` reaches `~/x`), not just the path
 * argument. A `..` after a wildcard could land anywhere, so such patterns are refused.
 */
export function globReach(pathArg: string | undefined, pattern: string): GlobReach {
  let root: string;
  let body: string;
  if (pattern.startsWith('/')) {
    root = '/';
    body = pattern.replace(/^\/+/, '');
  } else if (pattern === '~' || pattern.startsWith('~/')) {
    root = '~';
    body = pattern.slice(2);
  } else {
    root = pathArg ?? '.';
    body = pattern;
  }
  const parts = body.split('/');
  // The last segment stays in the pattern: it names the files.
  const fixed = parts.splice(0, parts.findIndex((p, k) => k === parts.length - 1 || MAGIC.test(p)));
  const rest = parts.join('/');
  if (rest === '') return { error: `"${pattern}" names a directory, not files; add a file pattern such as "${pattern.replace(/\/+$/, '')}/*".` };
  if (parts.some((p) => DOTDOT.test(p))) {
    return {
      error: `glob patterns may use ".." only in their leading directories (like "../lib/*.ts"), not after a wildcard or as the last part: where "${pattern}" lands cannot be known before the search. Put the directory in path instead.`,
    };
  }
  const literal = fixed.filter((p) => p !== '');
  if (literal.length === 0) return { root, rest };
  // Joined as written, not normalized: the permission check resolves `link/..` through the link itself.
  const joined = literal.join('/');
  if (root === '.') return { root: joined, rest };
  return { root: root === '/' ? `/${joined}` : `${root.replace(/\/+$/, '')}/${joined}`, rest };
}
