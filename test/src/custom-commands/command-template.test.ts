import { describe, expect, it } from 'vitest';
import { argumentNames, fillTemplate, splitArguments } from '../../../src/custom-commands/command-template.js';

// Claude Code's documented rules (code.claude.com/docs/en/skills, "Available string substitutions"):
// $ARGUMENTS as typed; $ARGUMENTS[N] and $N count from 0; a missing index stays as written; named
// arguments from the `arguments` field; one backslash makes a placeholder literal.
describe('filling a command body as Claude Code does', () => {
  it('$ARGUMENTS is the text as typed; $N and $ARGUMENTS[N] its words from 0, quotes grouping them', () => {
    expect(fillTemplate('Fix issue $0 in $1 ($ARGUMENTS)', '42 "src/a b.ts"')).toBe('Fix issue 42 in src/a b.ts (42 "src/a b.ts")');
    expect(fillTemplate('Migrate $ARGUMENTS[0] from $ARGUMENTS[1] to $ARGUMENTS[2].', 'SearchBar React Vue')).toBe('Migrate SearchBar from React to Vue.');
    expect(splitArguments(`one 'two three' "four \\"five\\"" six`)).toEqual(['one', 'two three', 'four "five"', 'six']);
  });

  it("awk '{print $2}' in a body is left alone when there is no third word (it became the second word before)", () => {
    const body = "Count the lines: `git log --format='%an' | awk '{print $2}' | sort | uniq -c` for $ARGUMENTS";
    expect(fillTemplate(body, 'alphaARG betaARG')).toBe("Count the lines: `git log --format='%an' | awk '{print $2}' | sort | uniq -c` for alphaARG betaARG");
    expect(fillTemplate('[$0][$1][$2][$10]', 'a b')).toBe('[a][b][$2][$10]\n\nARGUMENTS: a b');
    expect(fillTemplate('$ARGUMENTS[3] and $12abc', 'x')).toBe('$ARGUMENTS[3] and $12abc');
  });

  it('named arguments map to positions; a name with no word is empty; an undeclared $name is text', () => {
    const names = argumentNames('issue branch');
    expect(names).toEqual(['issue', 'branch']);
    expect(fillTemplate('Fix #$issue on $branch, not $issues or $HOME.', '12', names)).toBe('Fix #12 on , not $issues or $HOME.\n\nARGUMENTS: 12');
    expect(argumentNames(['old-name', 'new-name', 3, '7'])).toEqual(['old-name', 'new-name']);
    expect(fillTemplate('$old-name -> $new-name ($old)', 'A B', ['old-name', 'new-name', 'old'])).toBe('A -> B ()\n\nARGUMENTS: A B');
  });

  it('one backslash makes a placeholder literal; two leave both and the placeholder still expands; \\$HOME is untouched', () => {
    expect(fillTemplate('costs \\$1.00 each, $0', 'two')).toBe('costs $1.00 each, two\n\nARGUMENTS: two');
    expect(fillTemplate('\\\\$0 and \\$ARGUMENTS and \\$HOME', 'x')).toBe('\\\\x and $ARGUMENTS and \\$HOME\n\nARGUMENTS: x');
  });

  it('arguments given to a body without $ARGUMENTS are appended, never lost; no arguments, nothing appended', () => {
    expect(fillTemplate('Review the code.', 'focus on auth')).toBe('Review the code.\n\nARGUMENTS: focus on auth');
    expect(fillTemplate('Review $ARGUMENTS.', 'auth')).toBe('Review auth.');
    expect(fillTemplate('Review the code.', '')).toBe('Review the code.');
    expect(fillTemplate('Review $ARGUMENTS, first $0.', '')).toBe('Review , first $0.');
  });
});
