import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSpans } from '../../../src/permissions/rules/json-spans.js';
import { ruleLines } from '../../../src/permissions/rules/rule-lines.js';

// One scanner finds where each value of a settings file stands: the byte span /permissions add and
// remove edit (json-spans.ts), and the line of each rule the decision log names (rule-lines.ts).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = Array<string | number>;

// Strings a scanner can trip on: brackets, braces, quotes, backslashes, escapes, colons, commas,
// whitespace and newlines (escaped by JSON.stringify), astral and lone-surrogate unicode.
const tricky = fc.oneof(
  fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', ':', ',', ' ', '\n', '\t', '\r', '/', 'u', '0', 'é', '😀', '\u2028', '\ud800', '\u0000', 'a') }),
  fc.string({ unit: 'binary' }),
  fc.string(),
);
const key = tricky.filter((k) => k !== '__proto__');
/** Keys of the settings object around the permission lists, never the names the test places itself. */
const otherKey = (...taken: string[]) => key.filter((k) => !taken.includes(k));
const { value } = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    tricky,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
}));
const rules = fc.array(tricky, { maxLength: 5 });
/** A settings object: permission lists among other keys, and the same names nested where they are not rules. */
const settings = fc
  .record({
    before: fc.dictionary(otherKey('env', 'permissions'), value, { maxKeys: 3 }),
    allow: rules,
    ask: fc.option(rules, { nil: undefined }),
    deny: rules,
    inner: fc.dictionary(otherKey('allow', 'ask', 'deny'), value, { maxKeys: 2 }),
    after: fc.dictionary(otherKey('env', 'permissions'), value, { maxKeys: 3 }),
  })
  .map(({ before, allow, ask, deny, inner, after }): Record<string, Json> => {
    const permissions: Record<string, Json> = { ...inner, allow, deny, ...(ask ? { ask } : {}) };
    // Keys that only look like the permission lists: a nested "permissions", rules as object keys.
    return { ...before, env: { permissions: { allow: ['not a rule'] } }, permissions, ...after };
  });
/** How the file is laid out: on one line, indented, with tabs, with CRLF line ends. */
const layout = fc.constantFrom<(v: Json) => string>(
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 2),
  (v) => JSON.stringify(v, null, '\t'),
  (v) => `\n  ${JSON.stringify(v, null, 1).replaceAll('\n', '\r\n')}\n`,
);

function at(v: Json, path: Path): Json {
  let here: Json = v;
  for (const step of path) here = (here as Record<string | number, Json>)[step] as Json;
  return here;
}

function pathsOf(v: Json, path: Path = []): string[] {
  const inner = Array.isArray(v) ? v.flatMap((x, i) => pathsOf(x, [...path, i])) : v !== null && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => pathsOf(x, [...path, k])) : [];
  return [JSON.stringify(path), ...inner];
}

const SENTINEL = '\u0001cairn-rule-under-test\u0001';
/** The line of `permissions.<list>[i]`, found without a scanner: the same file with that rule replaced by a string found by search. */
function lineBySearch(v: Record<string, Json>, write: (v: Json) => string, list: 'allow' | 'ask' | 'deny', i: number): number {
  const copy = structuredClone(v);
  ((copy['permissions'] as Record<string, Json[]>)[list] as Json[])[i] = SENTINEL;
  const text = write(copy);
  const found = text.indexOf(JSON.stringify(SENTINEL));
  expect(found).toBeGreaterThanOrEqual(0);
  expect(text.indexOf(JSON.stringify(SENTINEL), found + 1)).toBe(-1);
  return text.slice(0, found).split('\n').length;
}

describe('json spans and rule lines: one scanner', () => {
  it('every value is found once, and its span slices back to that value', () => {
    fc.assert(
      fc.property(fc.oneof(value, settings), layout, (v, write) => {
        const text = write(v);
        const spans = jsonSpans(text);
        const parsed = JSON.parse(text) as Json;
        for (const { path, start, end } of spans) expect(JSON.stringify(JSON.parse(text.slice(start, end)))).toBe(JSON.stringify(at(parsed, path)));
        expect(spans.map((s) => JSON.stringify(s.path)).sort()).toEqual(pathsOf(parsed).sort());
      }),
      { numRuns: 300 },
    );
  });

  it("a rule's line is the line its text stands on", () => {
    fc.assert(
      fc.property(settings, layout, (v, write) => {
        const text = write(v);
        const permissions = v['permissions'] as Record<string, Json[] | undefined>;
        const expected = new Map<string, number>();
        for (const list of ['allow', 'ask', 'deny'] as const) {
          (permissions[list] ?? []).forEach((_, i) => expected.set(`${list}[${i}]`, lineBySearch(v, write, list, i)));
        }
        expect(Object.fromEntries(ruleLines(text))).toEqual(Object.fromEntries(expected));
      }),
      { numRuns: 300 },
    );
  });

  it('keys are read as JSON.parse reads them: escaped spellings count, and a repeated key is its last', () => {
    const escaped = '{\n  "permi\\u0073sions": {\n    "\\u0061llow": [\n      "Bash(ls)"\n    ]\n  }\n}';
    expect(JSON.parse(escaped)).toEqual({ permissions: { allow: ['Bash(ls)'] } });
    expect(Object.fromEntries(ruleLines(escaped))).toEqual({ 'allow[0]': 4 });
    const repeated = '{\n  "permissions": { "deny": ["a"] },\n  "permissions": {\n    "deny": ["b"]\n  }\n}';
    expect(JSON.parse(repeated)).toEqual({ permissions: { deny: ['b'] } });
    expect(Object.fromEntries(ruleLines(repeated))).toEqual({ 'deny[0]': 4 });
  });
});
