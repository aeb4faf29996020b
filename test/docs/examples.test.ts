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
import { wordsCommand } from '../../docs/examples/word-count-command.js';
import { highContrast } from '../../docs/examples/theme-palette.js';
import { builtinCommands } from '../../components/commands/builtin.js';
import type { AppContext } from '../../components/actions/app-context.js';
import { createCommandRegistry, runSlash } from '../../components/commands/registry.js';
import { is, KEYMAP, setActiveKeymap } from '../../components/keys/keymap.js';
import { keyHelp } from '../../components/keys/key-help.js';
import { loadKeybindings } from '../../components/keys/user-keybindings.js';
import { paint } from '../../components/theme/ansi.js';
import type { Theme } from '../../components/theme/theme.js';
import { createTheme } from '../../components/theme/theme.js';
import { loadMcpConfig } from '../../src/mcp/mcp-config.js';
import { createMcpManager } from '../../src/mcp/mcp-manager.js';
import type { AnyTool } from '../../src/tools/tool.js';
import { startHttpFixture } from '../fixtures/mcp/http-server.mjs';
import { createEchoProvider } from '../../docs/examples/providers/echo-provider.js';
import { resolveProvider } from '../../src/providers/resolve.js';

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

describe('docs/guide/add-a-tool.md: the word_count card', () => {
  it('is the generic card until its one registry entry is loaded, then shows the counts', async () => {
    const { toolCard, cardTitle } = await import('../../components/transcript/tool-cards.js');
    const { createTheme } = await import('../../components/theme/theme.js');
    const { stripAnsi } = await import('../../components/theme/ansi.js');
    const theme = createTheme('dark', { NO_COLOR: '1' });
    const input = { path: 'notes.txt' };
    const item = {
      kind: 'tool', id: 'c1', toolUseId: 't1', name: 'word_count', input, view: wordCountTool.describe!(input),
      parallel: false, batch: 1, status: 'success', startedAt: 0, progress: '', result: 'notes.txt: 2 lines, 5 words',
    } as const;
    expect(cardTitle(item)).toBe('notes.txt');
    expect(toolCard('word_count').summary?.(item)).toBeUndefined();
    await import('../../docs/examples/word-count-card.js');
    expect(toolCard('word_count').summary?.(item)).toBe('2 lines, 5 words');
    expect(toolCard('word_count').body(item, 80, theme).map(stripAnsi)).toEqual(['notes.txt: 2 lines, 5 words']);
  });
});

describe('docs/guide/add-a-tool.md: the word_count example', () => {
  it('runs through the loop without approval inside the workspace', async () => {
    await fs.writeFile(path.join(dir, 'notes.txt'), 'one two three\nfour five\n');
    const events = await runOne({ path: 'notes.txt' });
    expect(resultOf(events)).toMatchObject({ name: 'word_count', is_error: false, content: 'notes.txt: 2 lines, 5 words' });
    expect(events.at(-1)).toMatchObject({ type: 'terminal', reason: 'completed' });
    // Its describe titles the card: the UI shows what the tool said, nothing guessed from the input.
    expect(events.find((e) => e.type === 'tool_start')).toMatchObject({ view: { title: 'notes.txt', subject: { kind: 'path', path: 'notes.txt' } } });
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

describe('docs/guide/add-a-slash-command.md: the /words example', () => {
  const registry = createCommandRegistry([...builtinCommands(), wordsCommand]);
  const run = async (line: string): Promise<{ message: string; level: string | undefined }[]> => {
    const printed: { message: string; level: string | undefined }[] = [];
    // The example only prints; the rest of the context is the app's (session, store, exit).
    const ctx = { commands: registry, print: (message: string, level?: string) => printed.push({ message, level }) } as unknown as AppContext;
    await runSlash(line, ctx);
    return printed;
  };

  it('runs by name and by alias, and asks for its argument when it has none', async () => {
    expect(await run('/words one two  three')).toEqual([{ message: '3 words', level: undefined }]);
    expect(await run('/wc solo')).toEqual([{ message: '1 word', level: undefined }]);
    expect(await run('/words')).toEqual([{ message: 'Usage: /words <text>', level: 'warning' }]);
  });

  it('is in the palette, in /help, and suggested for a typo', async () => {
    expect(registry.filter('wo').map((c) => c.name)).toEqual(['words']);
    const [help] = await run('/help');
    expect(help?.message).toMatch(/\/words <text>\s+Count the words of a text/);
    expect((await run('/wrods a b'))[0]?.message).toBe('Unknown command /wrods. Did you mean /words? Type /help for the list.');
  });
});

describe('docs/guide/add-a-key-binding.md: the keybindings.json example', () => {
  afterEach(() => setActiveKeymap(KEYMAP));

  it('loads from $CAIRN_HOME with no problem and moves the keys', async () => {
    await fs.copyFile(path.resolve(import.meta.dirname, '../../docs/examples/keybindings.json'), path.join(dir, 'keybindings.json'));
    const { keymap, problems } = await loadKeybindings(dir);
    expect(problems).toEqual([]);
    setActiveKeymap(keymap);
    const key = (mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; tab?: boolean }) =>
      ({ ctrl: false, meta: false, shift: false, tab: false, ...mods }) as Parameters<typeof is>[2];
    expect(is('editInEditor', 'x', key({ ctrl: true }))).toBe(true);
    expect(is('editInEditor', 'g', key({ ctrl: true }))).toBe(false);
    expect(is('cycleMode', 't', key({ ctrl: true }))).toBe(true);
    expect(is('cycleMode', '', key({ shift: true, tab: true }))).toBe(true);
    const help = keyHelp().join('\n');
    expect(help).toMatch(/Ctrl\+X\s+edit the prompt in \$VISUAL/);
    expect(help).toMatch(/Shift\+Tab \/ Ctrl\+T\s+next permission mode/);
  });

  it('names the file and key of a mistake and keeps the defaults for it', async () => {
    await fs.writeFile(path.join(dir, 'keybindings.json'), JSON.stringify({ bindings: { editInEditor: ['hyper+x'], redrawScreen: ['ctrl+r'] } }));
    const { keymap, problems } = await loadKeybindings(dir);
    const file = path.join(dir, 'keybindings.json');
    expect(problems).toEqual([
      `${file}: bindings.editInEditor: unknown modifier "hyper" in "hyper+x" (ctrl, shift, alt); keeping its default keys`,
      expect.stringMatching(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: bindings\\.redrawScreen: no such command`)),
    ]);
    expect(keymap.editInEditor).toBe(KEYMAP.editInEditor);
  });
});

describe('docs/guide/add-a-theme.md: the high-contrast palette', () => {
  const theme: Theme = { name: 'dark', color: true, colors: highContrast };

  it('gives every token a valid SGR parameter list that paint() writes', () => {
    for (const code of Object.values(highContrast)) expect(code).toMatch(/^(\d+(;\d+)*)?$/);
    expect(paint(theme, 'error', 'failed')).toBe('\x1b[1;91mfailed\x1b[0m');
    expect(paint(theme, 'diffAdd', '+ line')).toBe('\x1b[30;102m+ line\x1b[0m');
  });

  it('NO_COLOR still wins over a palette: createTheme drops every colour', () => {
    expect(createTheme('dark', { NO_COLOR: '1' }).color).toBe(false);
  });
});

describe('docs/guide/add-an-mcp-server.md: the .mcp.json example', () => {
  const copyExample = async (): Promise<void> => {
    await fs.copyFile(path.resolve(import.meta.dirname, '../../docs/examples/mcp/mcp.json'), path.join(dir, '.mcp.json'));
  };

  it("is read by the real loader in Claude Code's format, with ${VAR} and ${VAR:-default} expanded", async () => {
    await copyExample();
    const { servers, problems } = await loadMcpConfig({ workspace: dir, cairnHome: path.join(dir, '.home'), layers: [], env: { TRACKER_TOKEN: 'abc' } });
    expect(problems).toEqual([]);
    const source = path.join(dir, '.mcp.json');
    expect(servers).toEqual([
      { name: 'files', scope: 'project', source, config: { transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', './docs'], env: {} } },
      { name: 'tracker', scope: 'project', source, config: { transport: 'http', url: 'http://127.0.0.1:8765/mcp', headers: { Authorization: 'Bearer abc' } } },
    ]);
    const unset = await loadMcpConfig({ workspace: dir, cairnHome: path.join(dir, '.home'), layers: [], env: {} });
    expect(unset.problems).toEqual([`${source}: MCP server "tracker": \${TRACKER_TOKEN} not set; left as written`]);
  });

  it('starts nothing from an untrusted workspace, nor from a trusted one before the server is approved; once approved, its tools join as mcp__tracker__*', async () => {
    const remote = await startHttpFixture('tracker');
    const managers: { close(): Promise<void> }[] = [];
    try {
      await copyExample();
      const env = { ...process.env, TRACKER_URL: remote.url.replace(/\/mcp$/, ''), TRACKER_TOKEN: 'abc' };
      const config = await loadMcpConfig({ workspace: dir, cairnHome: path.join(dir, '.home'), layers: [], env });
      const untrusted = createMcpManager({ config, layers: [], trusted: false, env, cwd: dir, tools: [] });
      managers.push(untrusted);
      untrusted.start();
      await untrusted.ready();
      expect(untrusted.statuses().map((s) => [s.name, s.state])).toEqual([['files', 'pending'], ['tracker', 'pending']]);
      expect(remote.headersSeen).toEqual([]);

      const unapproved = createMcpManager({ config, layers: [], trusted: true, env, cwd: dir, tools: [] });
      managers.push(unapproved);
      unapproved.start();
      await unapproved.ready();
      expect(unapproved.statuses().map((s) => [s.name, s.state])).toEqual([['files', 'pending'], ['tracker', 'pending']]);
      expect(remote.headersSeen).toEqual([]);

      // Only the tracker is approved here: the files server would fetch a package with npx.
      const tools: AnyTool[] = [];
      const trusted = createMcpManager({ config, layers: [], trusted: true, choices: { approved: ['tracker'], declined: [] }, env, cwd: dir, tools });
      managers.push(trusted);
      trusted.start();
      await trusted.ready();
      expect(trusted.statuses().map((st) => [st.name, st.state])).toEqual([['files', 'pending'], ['tracker', 'connected']]);
      const echo = tools.find((t) => t.name === 'mcp__tracker__echo');
      expect(await echo?.call(echo.inputSchema.parse({ text: 'hi' }), { cwd: dir, signal: new AbortController().signal })).toEqual({ content: 'echo from tracker: hi' });
      expect(remote.headersSeen.at(-1)?.['authorization']).toBe('Bearer abc');
    } finally {
      await Promise.all(managers.map((m) => m.close()));
      await remote.close();
    }
  });
});

describe('docs/guide/add-a-provider.md', () => {
  it('the config.json example is read by the real loader and chosen at start, with its key from the named variable', async () => {
    await fs.copyFile(path.join(import.meta.dirname, '../../docs/examples/providers/config.json'), path.join(dir, 'config.json'));
    const resolved = resolveProvider({ flags: {}, env: { LOCAL_LLM_KEY: 'sk-local' }, cairnHome: dir });
    expect(resolved).toMatchObject({ name: 'local-llm', api: 'openai', model: 'qwen2.5-coder:14b', baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-local', contextWindow: 32768 });
  });

  it('the echo provider streams through the real loop and its answer ends the turn', async () => {
    const events: AgentEvent[] = [];
    for await (const e of query({
      provider: createEchoProvider(),
      tools: [],
      permissions: createPermissionChecker({ workspace: dir, mode: 'default', cairnHome: dir, rules: { allow: [], ask: [], deny: [] } }),
      cwd: dir,
      system: () => 'test',
      messages: [],
      prompt: { role: 'user', content: [{ type: 'text', text: 'hello there' }] },
      signal: new AbortController().signal,
    })) events.push(e);
    const text = events.filter((e): e is EventOf<'text_delta'> => e.type === 'text_delta').map((e) => e.text).join('');
    expect(text).toBe('You said: hello there');
    expect(events.at(-1)).toMatchObject({ type: 'terminal', reason: 'completed', result: 'You said: hello there' });
  });
});
