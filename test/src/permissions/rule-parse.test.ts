import { describe, expect, it } from 'vitest';
import { canonicalToolName, parseRule, RuleError, splitRuleList } from '../../../src/permissions/rules/parse.js';

describe('parseRule', () => {
  it('maps Claude Code tool names to cairn tool names', () => {
    const aliases: Array<[string, string]> = [
      ['Bash', 'bash'],
      ['Read', 'read_file'],
      ['Write', 'write_file'],
      ['Edit', 'edit_file'],
      ['MultiEdit', 'edit_file'],
      ['Glob', 'glob'],
      ['Grep', 'grep'],
      ['LS', 'list_dir'],
      ['Monitor', 'monitor'],
      ['bash', 'bash'],
      ['web_fetch', 'web_fetch'],
    ];
    for (const [name, tool] of aliases) expect(parseRule(name)).toEqual({ text: name, tool });
  });

  it('keeps the specifier, and treats `(*)` as the bare tool', () => {
    expect(parseRule('Bash(git status:*)')).toEqual({ text: 'Bash(git status:*)', tool: 'bash', specifier: 'git status:*' });
    expect(parseRule('  Read(./secrets/**) ')).toEqual({ text: 'Read(./secrets/**)', tool: 'read_file', specifier: './secrets/**' });
    expect(parseRule('write_file(*)')).toEqual({ text: 'write_file(*)', tool: 'write_file' });
    expect(parseRule('Bash(echo (a))').specifier).toBe('echo (a)');
  });

  it('reads every rule form Claude Code documents (issue 15)', () => {
    // The specifier is everything between the first "(" and the last ")", as Claude Code reads it.
    expect(parseRule('Bash(echo ")")')).toEqual({ text: 'Bash(echo ")")', tool: 'bash', specifier: 'echo ")"' });
    expect(parseRule('Bash(a))').specifier).toBe('a)');
    expect(parseRule('mcp__github__*')).toEqual({ text: 'mcp__github__*', tool: 'mcp__github__*' });
    expect(parseRule('mcp__github')).toEqual({ text: 'mcp__github', tool: 'mcp__github' });
    expect(parseRule('WebFetch(domain:*.example.com)')).toEqual({ text: 'WebFetch(domain:*.example.com)', tool: canonicalToolName('WebFetch'), specifier: 'domain:*.example.com' });
    expect(parseRule('WebSearch')).toEqual({ text: 'WebSearch', tool: canonicalToolName('WebSearch') });
    expect(parseRule('Skill(deploy *)')).toEqual({ text: 'Skill(deploy *)', tool: 'load_skill', specifier: 'deploy *' });
    expect(parseRule('Task(Explore)').tool).toBe('agent');
    expect(parseRule('Agent(Explore)')).toEqual({ text: 'Agent(Explore)', tool: 'agent', specifier: 'Explore' });
    expect(parseRule('Read(//etc/**)').specifier).toBe('//etc/**');
    expect(parseRule('Read(~/.ssh/**)').specifier).toBe('~/.ssh/**');
  });

  it('rejects malformed rules with a message naming the rule and the problem', () => {
    const bad: Array<[string, RegExp]> = [
      ['Bash(git status', /"Bash\(git status".*missing closing "\)"/],
      ['Bash()', /empty specifier/],
      ['(ls)', /missing tool name/],
      ['', /empty rule/],
      ['Bash(a)(b', /missing closing/],
      ['Ba sh', /tool name/],
      ['Bash)', /unexpected "\)"/],
    ];
    for (const [rule, message] of bad) {
      expect(() => parseRule(rule), rule).toThrow(RuleError);
      expect(() => parseRule(rule), rule).toThrow(message);
    }
  });
});

describe('splitRuleList', () => {
  it('splits on spaces and commas outside parentheses only', () => {
    expect(splitRuleList('Bash(git status:*) Read')).toEqual(['Bash(git status:*)', 'Read']);
    expect(splitRuleList('  Bash(npm run test *)   Edit,Write(./a b/**) ')).toEqual(['Bash(npm run test *)', 'Edit', 'Write(./a b/**)']);
    expect(splitRuleList('Bash(echo a,b)')).toEqual(['Bash(echo a,b)']);
    expect(splitRuleList('')).toEqual([]);
  });

  it('leaves an unclosed rule whole so parseRule reports it', () => {
    const parts = splitRuleList('Read Bash(git status');
    expect(parts).toEqual(['Read', 'Bash(git status']);
    expect(() => parseRule(parts[1]!)).toThrow(/missing closing/);
  });
});
