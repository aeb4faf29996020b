import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchBashSpecifier, matchPathSpecifier } from '../../../src/permissions/rules/match.js';

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

describe('matchPathSpecifier is linear-time', () => {
  const bases = { workspace: '/ws/proj', home: '/home/u' };

  it('answers many-star rules against a long file name at once (picomatch backtracked for minutes)', () => {
    const name = 'a'.repeat(255);
    expect(matchPathSpecifier('./**/*a*a*a*a*a*b', `/ws/proj/x/${name}`, bases)).toBe(false);
    expect(matchPathSpecifier('./**/*a*a*a*a*a*b', `/ws/proj/x/${name}b`, bases)).toBe(true);
  });

  it('answers several globstars against a deep path the model made up at once', () => {
    const deep = `/ws/proj/${'a/'.repeat(2000)}c`;
    expect(matchPathSpecifier('**/a/**/a/**/a/**/b', deep, bases)).toBe(false);
    expect(matchPathSpecifier('**/a/**/a/**/a/**/c', deep, bases)).toBe(true);
  });

  it('keeps rules written with extglobs working', () => {
    expect(matchPathSpecifier('./@(secrets|keys)/**', '/ws/proj/keys/id_rsa', bases)).toBe(true);
    expect(matchPathSpecifier('./@(secrets|keys)/**', '/ws/proj/src/a.ts', bases)).toBe(false);
  });
});
