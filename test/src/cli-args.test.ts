import { describe, expect, it } from 'vitest';
import { HELP, parseCliArgs, UsageError } from '../../src/cli-args.js';

describe('parseCliArgs: rule-list flags (Claude Code forms)', () => {
  it('several arguments after one flag are all rules, and the prompt stays the prompt', () => {
    const cli = parseCliArgs(['-p', 'tidy the repo', '--disallowed-tools', 'Bash(rm:*)', 'Bash(curl:*)']);
    expect(cli.disallowedTools).toEqual(['Bash(rm:*)', 'Bash(curl:*)']);
    expect(cli.prompt).toBe('tidy the repo');
  });

  it('the list ends at the next flag, and a prompt after "--" is the prompt', () => {
    const cli = parseCliArgs(['-p', '--allowed-tools', 'Read', 'Bash(git log:*)', '--disallowedTools', 'Bash(rm:*)', 'Write', '--', 'fix', 'it']);
    expect(cli.allowedTools).toEqual(['Read', 'Bash(git log:*)']);
    expect(cli.disallowedTools).toEqual(['Bash(rm:*)', 'Write']);
    expect(cli.prompt).toBe('fix it');
  });

  it('one argument may hold several rules; "--flag=value" takes exactly one argument', () => {
    const cli = parseCliArgs(['--allowedTools=Read,Edit', 'the prompt', '--disallowed-tools', 'Bash(rm:*) Bash(curl:*)']);
    // Split into single rules later by splitRuleList; here each argument is kept whole.
    expect(cli.allowedTools).toEqual(['Read,Edit']);
    expect(cli.disallowedTools).toEqual(['Bash(rm:*) Bash(curl:*)']);
    expect(cli.prompt).toBe('the prompt');
  });

  it('camelCase and kebab-case forms add up', () => {
    const cli = parseCliArgs(['--allowed-tools', 'Read', '--allowedTools', 'Edit', 'Write', '-p', 'go']);
    expect(cli.allowedTools).toEqual(['Read', 'Edit', 'Write']);
    expect(cli.prompt).toBe('go');
  });

  it('a list flag with no rule after it is a usage error naming the flag', () => {
    expect(() => parseCliArgs(['--disallowed-tools', '-p', 'x'])).toThrow(UsageError);
    expect(() => parseCliArgs(['--disallowed-tools'])).toThrow(/disallowed-tools/);
  });

  it('a bare --resume still means "pick one", and an id after it is the id', () => {
    expect(parseCliArgs(['--resume']).resume).toBe('');
    expect(parseCliArgs(['--resume', '--allowed-tools', 'Read']).resume).toBe('');
    expect(parseCliArgs(['--resume', 'abc', 'hello']).resume).toBe('abc');
  });
});

describe('parseCliArgs: --mcp-config', () => {
  it('takes files and JSON strings as several arguments, in both spellings, and the prompt stays the prompt', () => {
    const json = '{"mcpServers": {"a": {"command": "x"}}}';
    const cli = parseCliArgs(['-p', 'list the tools', '--mcp-config', 'servers.json', json, '--mcpConfig=more.json']);
    expect(cli.mcpConfig).toEqual(['servers.json', json, 'more.json']);
    expect(cli.prompt).toBe('list the tools');
    expect(cli.print).toBe(true);
  });

  it('is empty when not given, and a usage error naming the flag when given nothing', () => {
    expect(parseCliArgs(['hi']).mcpConfig).toEqual([]);
    expect(() => parseCliArgs(['--mcp-config'])).toThrow(/mcp-config/);
  });

  it('is in the help', () => {
    expect(HELP).toMatch(/--mcp-config CONFIGS/);
  });

  it('the help names the other command, cairn serve, and where its own help is', () => {
    const usage = HELP.slice(HELP.indexOf('Usage:'), HELP.indexOf('Options:'));
    expect(usage).toMatch(/^ {2}cairn serve +\S.*cairn serve --help/m);
  });
});
