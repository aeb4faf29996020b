import { existsSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// Skills and custom commands through the built cairn, headless, on the offline model.
const text = (events: AgentEvent[], type: 'tool_result' | 'user_prompt'): string[] =>
  events.flatMap((e) => (e.type === type ? [e.type === 'tool_result' ? `${e.name}: ${e.content}` : e.text] : []));

async function workspace(files: Record<string, string> = {}) {
  const ws = await tempWorkspace(files);
  // HOME too: the machine's own ~/.claude/skills must not leak into the test.
  return { ...ws, env: { HOME: ws.home } };
}

/** What rules and grants decide, without the sandbox's own yes to a command that stays in the workspace. */
const RULES_ONLY = ['--no-sandbox'];

/** Trusted as a yes to the trust question would leave it: a project's allowed-tools apply only then. */
async function trust(ws: { dir: string; home: string }): Promise<void> {
  await writeFile(join(ws.home, 'trusted-folders.json'), JSON.stringify({ folders: { [ws.dir]: { trustedAt: '2026-11-30T00:00:00Z' } } }));
}

async function projectSkill(dir: string, name: string, frontmatter: string, body: string): Promise<void> {
  await mkdir(join(dir, '.claude', 'skills', name, 'scripts'), { recursive: true });
  await writeFile(join(dir, '.claude', 'skills', name, 'SKILL.md'), `---\nname: ${name}\n${frontmatter}\n---\n${body}\n`);
  await writeFile(join(dir, '.claude', 'skills', name, 'scripts', 'helper.sh'), 'echo helper\n');
}

describe('skills, headless', () => {
  it('"use the summarize skill on notes.txt": load_skill gives the shipped body and files, then the file is read', async () => {
    const ws = await workspace({ 'notes.txt': 'alpha\nbeta\n' });
    const run = await runCairn(['-p', 'use the summarize skill on notes.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(run.code).toBe(0);
    const results = text(run.events, 'tool_result');
    expect(results[0]).toMatch(/^load_skill: Skill "summarize" loaded from .*skills\/summarize\/SKILL\.md/);
    expect(results[0]).toContain('# Summarise');
    expect(results[1]).toMatch(/^read_file: .*alpha/s);
    const start = run.events.find((e) => e.type === 'session_start');
    expect(start?.type === 'session_start' && start.tools).toContain('load_skill');
  });

  it('skill-creator answers to its former name: "use the create-skill skill" and /create-skill both run it', async () => {
    const ws = await workspace();
    const model = await runCairn(['-p', 'use the create-skill skill', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(model.code).toBe(0);
    expect(text(model.events, 'tool_result')[0]).toMatch(/^load_skill: Skill "skill-creator" loaded from .*skills\/skill-creator\/SKILL\.md/);
    const user = await runCairn(['-p', '/create-skill greet the team', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    const prompt = text(user.events, 'user_prompt')[0] ?? '';
    expect(prompt).toMatch(/^\/skill-creator greet the team\n/);
    expect(prompt).toContain("The user's idea, if given: greet the team");
  });

  it('the Chinese form loads the skill too, and a broken skill is reported on stderr with its path while the rest still load', async () => {
    const ws = await workspace();
    await mkdir(join(ws.dir, '.cairn', 'skills', 'broken'), { recursive: true });
    await writeFile(join(ws.dir, '.cairn', 'skills', 'broken', 'SKILL.md'), '---\nname: broken\n---\n');
    const run = await runCairn(['-p', '使用 commit-message 技能'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Skill "commit-message" loaded');
    expect(run.stderr).toContain(`Skill ${join(ws.dir, '.cairn', 'skills', 'broken', 'SKILL.md')}: description: missing; it is skipped`);
  });

  it("a skill's allowed-tools let its command run without asking, only in that turn's skill, and never past a deny rule", async () => {
    const ws = await workspace();
    await projectSkill(ws.dir, 'maker', 'description: makes files\nallowed-tools: Bash(touch:*)', 'Make the files asked for.');
    // Headless, nobody can approve: without the skill, touch is refused.
    const plain = await runCairn([...RULES_ONLY, '-p', 'run touch plain.txt'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(existsSync(join(ws.dir, 'plain.txt'))).toBe(false);
    expect(plain.code).toBe(0);
    // An untrusted project's skill loads, but its allowed-tools grant nothing.
    const untrusted = await runCairn([...RULES_ONLY, '-p', 'use the maker skill then run touch untrusted.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(existsSync(join(ws.dir, 'untrusted.txt'))).toBe(false);
    expect(text(untrusted.events, 'tool_result')[0]).toContain('are not granted: the workspace is not trusted');
    await trust(ws);
    const granted = await runCairn([...RULES_ONLY, '-p', 'use the maker skill then run touch made.txt'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(granted.code).toBe(0);
    expect(existsSync(join(ws.dir, 'made.txt'))).toBe(true);
    const denied = await runCairn([...RULES_ONLY, '-p', 'use the maker skill then run touch denied.txt', '--disallowed-tools', 'Bash(touch *)', '--output-format', 'stream-json'], {
      cwd: ws.dir,
      home: ws.home,
      env: ws.env,
    });
    expect(existsSync(join(ws.dir, 'denied.txt'))).toBe(false);
    expect(text(denied.events, 'tool_result').join('\n')).toMatch(/denied by rule Bash\(touch \*\)/);
  }, 90_000); // four runs of the built cairn: over 30 s seen on a loaded machine

  it('a skill the model may not invoke is refused to load_skill but runs as /name from the prompt', async () => {
    const ws = await workspace();
    await projectSkill(ws.dir, 'deploy', 'description: deploys\ndisable-model-invocation: true\nargument-hint: "<env>"', 'Deploy to $0 now.');
    const model = await runCairn(['-p', 'use the deploy skill', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(text(model.events, 'tool_result')[0]).toContain('is run only by the user');
    const user = await runCairn(['-p', '/deploy staging', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    const prompt = text(user.events, 'user_prompt')[0] ?? '';
    expect(prompt).toMatch(/^\/deploy staging\n/);
    expect(prompt).toContain('Deploy to staging now.');
    expect(prompt).toContain(join(ws.dir, '.claude', 'skills', 'deploy', 'scripts', 'helper.sh'));
  });
});

describe('custom commands, headless', () => {
  it('runs a namespaced command: arguments filled, @file included, an allowed !`cmd` inlined, a denied one not run', async () => {
    const ws = await workspace({ 'src/notes.md': 'THE NOTES\n' });
    await mkdir(join(ws.dir, '.claude', 'commands', 'git'), { recursive: true });
    await writeFile(
      join(ws.dir, '.claude', 'commands', 'git', 'report.md'),
      [
        '---',
        'description: report on a branch',
        'argument-hint: <branch> <who>',
        '---',
        'Branch $0 for $1 (all: $ARGUMENTS).',
        'Notes: @src/notes.md',
        'Listing: !`ls src`',
        'Made: !`touch made-by-command.txt`',
        'Cost: \\$5',
      ].join('\n'),
    );
    const run = await runCairn([...RULES_ONLY, '-p', '/git:report main "Ada Lovelace"', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(run.code).toBe(0);
    const prompt = text(run.events, 'user_prompt')[0] ?? '';
    expect(prompt).toContain('Branch main for Ada Lovelace (all: main "Ada Lovelace").');
    expect(prompt).toMatch(/Notes: src\/notes\.md:\n```\nTHE NOTES\n```/);
    expect(prompt).toContain('Listing: $ ls src\nnotes.md');
    // Headless, nobody can approve a command that changes files: its line says so and nothing runs.
    expect(prompt).toMatch(/Made: \[!`touch made-by-command\.txt` was not run: .*nobody to ask in this mode\]/);
    expect(existsSync(join(ws.dir, 'made-by-command.txt'))).toBe(false);
    expect(prompt).toContain('Cost: $5');
  });

  it("a command's allowed-tools let its !`cmd` run; a deny rule still stops it", async () => {
    const ws = await workspace();
    await mkdir(join(ws.dir, '.cairn', 'commands'), { recursive: true });
    await writeFile(join(ws.dir, '.cairn', 'commands', 'mk.md'), '---\nallowed-tools: Bash(touch:*)\n---\nMade: !`touch $0`\n');
    await runCairn([...RULES_ONLY, '-p', '/mk untrusted.txt'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(existsSync(join(ws.dir, 'untrusted.txt'))).toBe(false);
    await trust(ws);
    await runCairn([...RULES_ONLY, '-p', '/mk allowed.txt'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(existsSync(join(ws.dir, 'allowed.txt'))).toBe(true);
    const denied = await runCairn([...RULES_ONLY, '-p', '/mk denied.txt', '--disallowed-tools', 'Bash(touch *)', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    expect(existsSync(join(ws.dir, 'denied.txt'))).toBe(false);
    expect(text(denied.events, 'user_prompt')[0]).toContain('[!`touch denied.txt` was not run: denied by rule Bash(touch *)]');
  });

  it("a real Claude Code project's commands and skills run unchanged", async () => {
    const ws = await workspace();
    await cp(resolve('test/fixtures/claude-project'), ws.dir, { recursive: true });
    const run = await runCairn(['-p', '/frontend:component Button forms', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    const prompt = text(run.events, 'user_prompt')[0] ?? '';
    expect(prompt).toContain('Create a React component named Button in src/components/forms');
    expect(prompt).toContain('# Conventions: function components, named exports.');
    expect(run.stderr).not.toMatch(/skipped/);
    const skill = await runCairn(['-p', 'use the release-notes skill', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: ws.env });
    const loaded = text(skill.events, 'tool_result')[0] ?? '';
    expect(loaded).toContain(`python3 ${join(ws.dir, '.claude', 'skills', 'release-notes')}/scripts/group_commits.py <tag>`);
    expect(loaded).toContain(join(ws.dir, '.claude', 'skills', 'release-notes', 'reference', 'style.md'));
  });
});
