import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/bootstrap.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// A project laid out as Claude Code users keep one: instruction files at every level with imports,
// rules with and without paths:, user-level files under a temp HOME, agents using every field.
const PROJECT: Record<string, string> = {
  'CLAUDE.md': '# Project\nROOT-CLAUDE. Read @docs/conventions.md and @~/.claude/personal.md.\n\n```\n@docs/not-an-import.md\n```\n',
  'docs/conventions.md': 'CONVENTIONS (imported). Deeper: @./style/tabs.md',
  'docs/style/tabs.md': 'TABS-STYLE (imported twice removed).',
  'docs/not-an-import.md': 'NOT-IMPORTED: inside a code fence.',
  '.claude/CLAUDE.md': 'DOT-CLAUDE-CLAUDE.',
  '.claude/rules/always.md': 'ALWAYS-RULE.',
  '.claude/rules/api.md': '---\npaths:\n  - "packages/api/**"\n---\nAPI-RULE (path-scoped).',
  'CLAUDE.local.md': 'LOCAL-CLAUDE.',
  'packages/api/CLAUDE.md': 'NESTED-API-CLAUDE (loaded when a file there is read).',
  'packages/api/index.ts': 'export {};\n',
  '.claude/agents/reviewer.md':
    '---\nname: reviewer\ndescription: Reviews code. Triggers on: "review", "check"\ntools: Read, Grep, Glob, Bash, WebFetch, mcp__github\ndisallowedTools: Bash\nmodel: sonnet\npermissionMode: plan\nmaxTurns: 7\ncolor: blue\n---\nYou review.',
  '.claude/agents/quick.md': '---\nname: quick.helper-1.0\ndescription: Fast lookups\ntools: [Read, Glob]\nmodel: haiku\n---\nBe quick.',
  '.claude/agents/heavy.md': '---\nname: heavy\ndescription: Hard problems\nmodel: opus\ndisallowedTools: Write, Edit\npermissionMode: bypassPermissions\n---\nThink hard.',
  '.claude/agents/same.md': '---\nname: same\ndescription: Same model as the session\ntools: Read\nmodel: inherit\n---\nSame.',
};

async function claudeProject() {
  const ws = await tempWorkspace(PROJECT);
  execFileSync('git', ['init', '-q', ws.dir]);
  const userHome = path.join(path.dirname(ws.dir), 'user');
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(userHome, rel)), { recursive: true });
    await fs.writeFile(path.join(userHome, rel), text);
  };
  await write('.claude/CLAUDE.md', 'USER-CLAUDE.');
  await write('.claude/personal.md', 'PERSONAL (imported from ~/.claude).');
  await write('.claude/rules/user-rule.md', 'USER-RULE.');
  await write('.claude/agents/mine.md', '---\nname: mine\ndescription: The user’s own agent\ntools: Read\n---\nMine.');
  return { ...ws, userHome };
}

describe('a Claude Code project, unchanged', () => {
  it('--show-system shows every instruction file loaded at start, in Claude Code’s order, and only those', async () => {
    const p = await claudeProject();
    const run = await runCairn(['--show-system'], { cwd: p.dir, home: p.home, env: { HOME: p.userHome } });
    expect(run.code).toBe(0);
    const markers = ['USER-CLAUDE', 'USER-RULE', 'ROOT-CLAUDE', 'CONVENTIONS', 'TABS-STYLE', 'PERSONAL', 'DOT-CLAUDE-CLAUDE', 'ALWAYS-RULE', 'LOCAL-CLAUDE'];
    const at = markers.map((m) => run.stdout.indexOf(m));
    expect(at.every((i) => i >= 0), `missing: ${markers.filter((_, i) => at[i] === -1).join(', ')}`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const file of ['CLAUDE.md', 'docs/conventions.md', 'docs/style/tabs.md', '.claude/CLAUDE.md', '.claude/rules/always.md', 'CLAUDE.local.md']) {
      expect(run.stdout).toContain(`# Instructions from ${path.join(p.dir, file)}`);
    }
    expect(run.stdout).toContain(`(imported by ${path.join(p.dir, 'docs', 'conventions.md')})`);
    expect(run.stdout).not.toContain('NOT-IMPORTED');
    expect(run.stdout).not.toContain('API-RULE');
    expect(run.stdout).not.toContain('NESTED-API-CLAUDE');
  });

  it('each agent gets exactly the tools and model expected; the nested CLAUDE.md and path rule join when a file there is read', async () => {
    const p = await claudeProject();
    const runtime = await createRuntime({
      cwd: p.dir,
      env: { HOME: p.userHome, CAIRN_HOME: p.home, ANTHROPIC_API_KEY: 'test-key-never-sent' },
      interactive: false,
      persist: false,
    });
    try {
      const session = runtime.session.model;
      expect(session).toBe('claude-sonnet-5-5');
      const agent = runtime.session.tools.find((t) => t.name === 'agent');
      if (!agent) throw new Error('no agent tool');
      const ctx = { cwd: runtime.cwd, signal: new AbortController().signal };
      const describe = async (type: string) => {
        const r = await agent.call({ type, task: '-', description: '-', describe: true }, ctx);
        const tools = /^Tools: (.*)$/m.exec(r.content)?.[1]?.split(', ').sort();
        return { tools, model: /^Model: (.*)$/m.exec(r.content)?.[1], mode: /^Permission mode: (.*)$/m.exec(r.content)?.[1], turns: /^Max turns: (.*)$/m.exec(r.content)?.[1] };
      };
      // WebFetch is granted once cairn has it (web_fetch); Bash is disallowed; mcp__github has no server here.
      const web = runtime.session.tools.some((t) => t.name === 'web_fetch') ? ['web_fetch'] : [];
      expect(await describe('reviewer')).toEqual({ tools: ['glob', 'grep', 'read_file', ...web], model: 'claude-sonnet-5-5', mode: 'plan', turns: '7' });
      expect(await describe('quick.helper-1.0')).toEqual({ tools: ['glob', 'read_file'], model: 'claude-haiku-5-5', mode: undefined, turns: undefined });
      const heavy = await describe('heavy');
      expect(heavy.model).toBe('claude-opus-5-5');
      expect(heavy.mode).toBeUndefined(); // a project's file may not widen the mode
      expect(heavy.tools).toContain('bash');
      expect(heavy.tools).not.toContain('write_file');
      expect(heavy.tools).not.toContain('edit_file');
      expect(await describe('same')).toEqual({ tools: ['read_file'], model: session, mode: undefined, turns: undefined });
      expect(await describe('mine')).toMatchObject({ tools: ['read_file'] });
      const notices = runtime.startupNotices.join('\n');
      expect(notices).toContain(`Agent definition ${path.join(p.dir, '.claude', 'agents', 'reviewer.md')}: description: the value has an unquoted ": "`);
      expect(notices).toContain(`Agent definition ${path.join(p.dir, '.claude', 'agents', 'heavy.md')}: permissionMode: bypassPermissions is not applied`);

      const read = runtime.session.tools.find((t) => t.name === 'read_file');
      if (!read) throw new Error('no read_file');
      const result = await read.call({ path: 'packages/api/index.ts' }, ctx);
      expect(result.content).toContain('NESTED-API-CLAUDE');
      expect(result.content).toContain('API-RULE (path-scoped).');
    } finally {
      runtime.close();
    }
  });
});
