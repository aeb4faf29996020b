// Command and skill files as real Claude Code projects write them load in cairn, with a warning
// where they bend a rule, and their prompts reach the model as Claude Code would send them.
// Checked through the runtime: the prompt each request to a loopback Anthropic server carries.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/bootstrap.js';
import type { RuntimeOptions } from '../../../src/runtime/runtime-options.js';
import { trustWorkspace } from '../../../src/settings/workspace-trust.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import type { AnthropicRequestBody, ScriptedServer } from '../../helpers/anthropic-server.js';

// 158 real subagent definitions (VoltAgent/awesome-claude-code-subagents) and their READMEs: Markdown
// with Claude Code frontmatter, 8 of them YAML strict parsing rejects. Read here as command files.
const VOLTAGENT = path.resolve('../shared/fixtures/claude-code/agents-voltagent');

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(closeAnthropicRuntimes);

/** A trusted workspace holding `files` (and what `setUp` adds), on a loopback Anthropic server. */
async function start(files: Record<string, string>, setUp?: (dir: string) => Promise<void>, runtime: Partial<RuntimeOptions> = {}): Promise<{ rt: Runtime; dir: string }> {
  const started = await anthropicRuntime({
    files,
    runtime,
    setUp: async (ws) => {
      await setUp?.(ws.dir);
      await trustWorkspace({ workspace: ws.dir, cairnHome: ws.home, homeDir: ws.userHome });
    },
  });
  server = started.server;
  return { rt: started.runtime, dir: started.dir };
}

/** The text of the last user message the model was sent. */
function lastPrompt(): string {
  const messages = server?.requests.at(-1)?.body.messages ?? [];
  const content = messages.at(-1)?.content;
  return typeof content === 'string' ? content : (content ?? []).map((b) => ('text' in b && typeof b.text === 'string' ? b.text : '')).join('');
}

async function runSlash(rt: Runtime, line: string): Promise<string> {
  const prepared = await rt.skills.prepare(line);
  expect(prepared, `${line} names a command`).toBeDefined();
  await rt.session.run(prepared?.prompt ?? line);
  return lastPrompt();
}

const LONG_DESCRIPTION = `Use this skill to build documents. ${'It handles tables, images and tracked changes. '.repeat(22)}`.trim();

describe('Claude Code command and skill files in cairn', () => {
  it('every Markdown file of a real Claude Code configuration loads as a command: none refused, a warning only where YAML is bent', async () => {
    const { rt } = await start({}, (dir) => fs.cp(VOLTAGENT, path.join(dir, '.claude', 'commands'), { recursive: true, filter: (src) => !src.endsWith('LICENSE') }));
    const files = (await fs.readdir(VOLTAGENT, { recursive: true })).map(String).filter((n) => n.endsWith('.md'));
    expect(files.length).toBeGreaterThanOrEqual(158);
    expect(rt.skills.commands.problems).toEqual([]);
    expect(rt.skills.commands.commands).toHaveLength(files.length);
    const warned = rt.skills.commands.commands.filter((c) => c.warnings !== undefined);
    expect(warned.map((c) => c.name.split(':')[1]).sort()).toEqual([
      'ab-test-analysis', 'assumption-mapping', 'backlog-grooming', 'cohort-analysis', 'first-principles-thinking', 'gdpr-ccpa-compliance', 'growth-loops', 'hipaa-compliance',
    ]);
    const hipaa = rt.skills.commands.commands.find((c) => c.name === '07-specialized-domains:hipaa-compliance');
    expect(hipaa?.description).toMatch(/^Use when the user is building a healthcare product.*Triggers on: 'HIPAA'/);
    expect(rt.startupNotices).toContain(`Command ${hipaa?.file}: description: the value has an unquoted ": " (not valid YAML); read as text. Quote it to silence this`);
  });

  it("the shapes strict YAML refused load, and awk '{print $2}' reaches the model as written", async () => {
    const { rt } = await start({
      '.claude/commands/authors.md': [
        '---',
        'description: Authors: who wrote the most',
        'allowed-tools: *',
        'argument-hint: [since] [path]',
        '---',
        "Count commits since $0 under $1: `git log --since=$0 --format='%an %ae' -- $1 | awk '{print $2}' | sort | uniq -c`.",
        '',
      ].join('\n'),
      '.claude/skills/docx/SKILL.md': `---\nname: document-builder\ndescription: ${LONG_DESCRIPTION}\n---\nBuild the document $ARGUMENTS.\n`,
    });
    expect(rt.skills.problems.filter((p) => p.endsWith('it is skipped'))).toEqual([]);
    const authors = rt.skills.commands.commands.find((c) => c.name === 'authors');
    expect(authors).toMatchObject({ description: 'Authors: who wrote the most', argumentHint: '[since] [path]', allowedTools: [] });
    expect(authors?.warnings).toEqual([
      'description: the value has an unquoted ": " (not valid YAML); read as text. Quote it to silence this',
      'allowed-tools: the value "*" is not valid YAML as written; read as that text, as Claude Code does. Quote it to silence this',
      'argument-hint: the value "[since] [path]" is not valid YAML as written; read as that text, as Claude Code does. Quote it to silence this',
      'allowed-tools: "*" grants nothing: a tool-name wildcard reaches only within one MCP server (mcp__server__*); name the tools',
    ]);
    expect(await runSlash(rt, '/authors 2026-01-01 src')).toContain(
      "Count commits since 2026-01-01 under src: `git log --since=2026-01-01 --format='%an %ae' -- src | awk '{print $2}' | sort | uniq -c`.",
    );
    const docx = rt.skills.skills.skills.find((s) => s.name === 'docx');
    expect(LONG_DESCRIPTION.length).toBeGreaterThan(1024);
    expect(docx?.description).toBe(LONG_DESCRIPTION);
    expect(rt.startupNotices).toEqual(expect.arrayContaining([
      `Skill ${docx?.file}: name: "document-builder" differs from its folder "docx"; it runs as /docx, as in Claude Code`,
      `Skill ${docx?.file}: description: ${LONG_DESCRIPTION.length} characters, more than the 1024 of the Agent Skills format; loaded whole, as in Claude Code`,
    ]));
    expect(await runSlash(rt, '/docx report.docx')).toContain('Build the document report.docx.');
  });

  it('allowed-tools: "*" grants nothing: a !`command` in the body is not run without asking (it ran before)', async () => {
    // The sandbox off: this is about what allowed-tools grant (the sandbox, on by default, would contain the touch).
    const { rt, dir } = await start({ '.claude/commands/setup.md': '---\nallowed-tools: "*"\n---\nSet up: !`touch pwned`\n' }, undefined, { sandbox: false });
    expect(rt.skills.commands.commands.find((c) => c.name === 'setup')?.allowedTools).toEqual([]);
    const prompt = await runSlash(rt, '/setup');
    expect(prompt).toMatch(/\[!`touch pwned` was not run: .*nobody to ask in this mode\]/);
    await expect(fs.stat(path.join(dir, 'pwned'))).rejects.toThrow(/ENOENT/);
  });
});
