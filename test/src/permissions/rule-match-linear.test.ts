import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchBashSpecifier } from '../../../src/permissions/rule-match.js';

/** The regex compilation rule matching used before it became linear: the oracle for identical semantics. */
function regexOracle(specifier: string, command: string): boolean {
  let spec = specifier.endsWith(':*') ? `${specifier.slice(0, -2)} *` : specifier;
  const trailing = spec.endsWith(' *') && !spec.endsWith('\\ *');
  if (trailing) spec = spec.slice(0, -2);
  let source = '';
  for (let i = 0; i < spec.length; i++) {
    const ch = spec[i]!;
    if (ch === '\\' && spec[i + 1] === '*') {
      source += '\\*';
      i += 1;
    } else if (ch === '*') source += '.*';
    else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}${trailing ? '( .*)?' : ''}$`, 's').test(command.trim());
}

describe('matchBashSpecifier is linear-time', () => {
  it('answers a many-star deny rule against a long command at once instead of hanging', () => {
    const spec = `${'*a'.repeat(12)}b`;
    const command = `echo ${'a'.repeat(20_000)}`;
    expect(matchBashSpecifier(spec, command)).toBe(false);
    expect(matchBashSpecifier(spec, `${command}b`)).toBe(true);
    expect(matchBashSpecifier(`${'* '.repeat(40)}*`, ' x'.repeat(20_000))).toBe(true);
  });

  it('agrees with the regex semantics on every small specifier and command', () => {
    const spec = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '*', '\\', ':'), maxLength: 8 });
    const command = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '*', '\\', ':', '\n'), maxLength: 10 });
    fc.assert(
      fc.property(spec, command, (s, c) => matchBashSpecifier(s, c) === regexOracle(s, c)),
      { numRuns: 20_000 },
    );
  });
});
