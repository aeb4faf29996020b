import { describe, expect, it } from 'vitest';
import { describeRules } from '../../../src/permissions/rules/listing.js';
import { unknownToolWarnings } from '../../../src/permissions/rules/unknown-tools.js';

const tools = ['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep', 'list_dir', 'agent'];

describe('unknownToolWarnings', () => {
  it('names the file, the rule and the known tools, and suggests the closest name', () => {
    const [warning, ...rest] = unknownToolWarnings([{ rule: 'Bsh(rm:*)', where: '/ws/.cairn/settings.json: permissions.deny[0]' }], tools);
    expect(rest).toEqual([]);
    expect(warning).toContain('/ws/.cairn/settings.json: permissions.deny[0]: the rule "Bsh(rm:*)" names an unknown tool "Bsh" (did you mean Bash?); it matches nothing.');
    expect(warning).toContain('Known tools: agent (Task, Agent), bash (Bash), edit_file (Edit, MultiEdit, NotebookEdit), glob (Glob)');
  });

  it('known names in either spelling, and mcp__ names, pass without a word', () => {
    const rules = ['Bash(git status:*)', 'bash', 'Read', 'read_file(./src/**)', 'MultiEdit', 'mcp__github__create_issue', 'mcp__slack'];
    expect(unknownToolWarnings(rules.map((rule) => ({ rule, where: '--allowed-tools' })), tools)).toEqual([]);
  });

  it('a name far from every tool gets no guess', () => {
    const [warning] = unknownToolWarnings([{ rule: 'Frobnicate(domain:example.com)', where: '--disallowed-tools' }], tools);
    expect(warning).toMatch(/^--disallowed-tools: the rule "Frobnicate\(domain:example.com\)" names an unknown tool "Frobnicate"; it matches nothing/);
  });

  it("Claude Code's own tool names cairn lacks are not typos: no warning at start (/rules marks them \"no such tool yet\")", () => {
    const origins = ['WebSearch', 'Skill(deploy)', 'NotebookRead', 'SlashCommand(/review)', 'mcp__github__*', '*'].map((rule) => ({ rule, where: 'f' }));
    expect(unknownToolWarnings(origins, ['bash'])).toEqual([]);
    expect(describeRules(['Skill(deploy)', 'Bash(ls *)', 'mcp__github__*', 'mcp__github'], ['bash', 'mcp__github__list'])).toEqual(['Skill(deploy) (no such tool yet)', 'Bash(ls *)', 'mcp__github__*', 'mcp__github']);
    expect(describeRules(['mcp__gitlab__*'], ['bash'])).toEqual(['mcp__gitlab__* (no such tool yet)']);
  });
});

describe("Claude Code's other tool names", () => {
  it('Task, Agent, TodoWrite, ExitPlanMode, NotebookEdit, BashOutput and KillShell rules name cairn tools, so they do not warn', () => {
    const tools = ['agent', 'todo_write', 'exit_plan_mode', 'edit_file', 'bash_output', 'kill_shell'];
    const rules = ['Task(Explore)', 'Agent', 'TodoWrite', 'ExitPlanMode', 'NotebookEdit(./nb/**)', 'BashOutput', 'KillShell'];
    expect(unknownToolWarnings(rules.map((rule) => ({ rule, where: 'test' })), tools)).toEqual([]);
  });
});
