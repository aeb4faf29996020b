import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wordCountTool } from '../../docs/examples/word-count-tool.js';
import type { AgentEvent, EventOf } from '../../src/events.js';
import { loadAgentDefinitions } from '../../src/agents/agent-definition-loader.js';
import { parseCairnHooks } from '../../src/hooks/hook-config.js';
import { createHookRunner } from '../../src/hooks/hook-runner.js';
import type { HookRunner } from '../../src/hooks/hook-types.js';
import { query } from '../../src/loop/query.js';
import { discoverSkills } from '../../src/skills/skill-discovery.js';
import { skillPlaces } from '../../src/skills/skill-places.js';
import { createPermissionChecker } from '../../src/permissions/checker.js';
import { assistantText, scriptedProvider, toolCall } from '../helpers/scripted-provider.js';

// The examples of docs/guide/ run here, so the pages never describe code that no longer works.
let dir: string;
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-docs-')));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function runOne(input: unknown, hooks?: HookRunner): Promise<AgentEvent[]> {
  const provider = scriptedProvider([toolCall('t1', 'word_count', input), assistantText('done')]);
  const permissions = createPermissionChecker({ workspace: dir, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(dir, '.home') });
  const events: AgentEvent[] = [];
  for await (const event of query({
    messages: [],
    prompt: { role: 'user', content: [{ type: 'text', text: 'count the words' }] },
    provider,
    tools: [wordCountTool],
    permissions,
    system: () => '',
    cwd: dir,
    signal: new AbortController().signal,
    ...(hooks ? { hooks } : {}),
  })) events.push(event);
  return events;
}

const resultOf = (events: AgentEvent[]): EventOf<'tool_result'> | undefined =>
  events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result');

describe('docs/guide/add-a-tool.md: the word_count example', () => {
  it('runs through the loop without approval inside the workspace', async () => {
    await fs.writeFile(path.join(dir, 'notes.txt'), 'one two three\nfour five\n');
    const events = await runOne({ path: 'notes.txt' });
    expect(resultOf(events)).toMatchObject({ name: 'word_count', is_error: false, content: 'notes.txt: 2 lines, 5 words' });
    expect(events.at(-1)).toMatchObject({ type: 'terminal', reason: 'completed' });
  });

  it('reports a missing file as an error result instead of throwing', async () => {
    const result = resultOf(await runOne({ path: 'absent.txt' }));
    expect(result?.is_error).toBe(true);
    expect(result?.content).toMatch(/^Cannot count absent\.txt: .*ENOENT/);
  });

  it('is not run on a file outside the workspace when nobody can approve it', async () => {
    const outside = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-docs-outside-'));
    try {
      await fs.writeFile(path.join(outside, 'secret.txt'), 'do not read');
      const result = resultOf(await runOne({ path: path.join(outside, 'secret.txt') }));
      expect(result?.is_error).toBe(true);
      expect(result?.content).toMatch(/outside the workspace/);
      expect(result?.content).not.toMatch(/words/);
    } finally {
      await fs.rm(outside, { recursive: true, force: true });
    }
  });
});

describe('docs/guide/add-a-skill.md: the changelog-entry example', () => {
  it('loads from a project\'s .cairn/skills with its description and allowed-tools', async () => {
    const example = path.resolve(import.meta.dirname, '../../docs/examples/skills/changelog-entry');
    await fs.cp(example, path.join(dir, '.cairn', 'skills', 'changelog-entry'), { recursive: true });
    const places = skillPlaces({ cwd: dir, cairnHome: path.join(dir, '.home'), env: { HOME: dir }, shippedDir: undefined });
    const catalog = await discoverSkills(places);
    expect(catalog.problems).toEqual([]);
    expect(catalog.skills.map((s) => s.name)).toEqual(['changelog-entry']);
    const [skill] = catalog.skills;
    expect(skill?.source).toBe('cairn-project');
    expect(skill?.description).toMatch(/^Writes a CHANGELOG\.md entry/);
    expect(skill?.allowedTools).toEqual(['Read', 'Bash(git log:*)', 'Bash(git diff:*)']);
    expect(skill?.body).toContain('git diff --stat');
  });
});

describe('docs/guide/add-a-hook.md: the audit-log example', () => {
  it('appends each tool call to .cairn/audit.log', async () => {
    const example = JSON.parse(await fs.readFile(path.resolve(import.meta.dirname, '../../docs/examples/hooks/hooks.json'), 'utf8')) as unknown;
    const parsed = parseCairnHooks(example, path.join(dir, '.hooks.json'));
    expect(parsed.problems).toEqual([]);
    const hooks = createHookRunner({ hooks: () => parsed.hooks, cwd: dir, env: process.env });
    await fs.writeFile(path.join(dir, 'notes.txt'), 'a b c\n');
    const events = await runOne({ path: 'notes.txt' }, hooks);
    expect(resultOf(events)?.content).toBe('notes.txt: 1 lines, 3 words');
    const log = await fs.readFile(path.join(dir, '.cairn', 'audit.log'), 'utf8');
    expect(log).toBe('word_count {"path":"notes.txt"}\n');
  });
});

describe('docs/guide/add-a-subagent-type.md: the test-reviewer example', () => {
  it('loads from a project\'s .claude/agents with its tools, model and turn limit', async () => {
    await fs.mkdir(path.join(dir, '.claude', 'agents'), { recursive: true });
    await fs.copyFile(path.resolve(import.meta.dirname, '../../docs/examples/agents/test-reviewer.md'), path.join(dir, '.claude', 'agents', 'test-reviewer.md'));
    const { agents, problems } = await loadAgentDefinitions(path.join(dir, '.home'), dir);
    expect(problems).toEqual([]);
    const agent = agents.find((a) => a.name === 'test-reviewer');
    expect(agent?.description).toMatch(/^Reviews the tests of a change/);
    expect(agent?.tools).toEqual(['read_file', 'grep', 'glob']);
    expect(agent?.model).toBe('haiku');
    expect(agent?.maxTurns).toBe(12);
    expect(agent?.prompt).toMatch(/^You review tests\./);
    expect(agent?.warnings ?? []).toEqual([]);
  });
});
