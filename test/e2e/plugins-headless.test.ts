import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// A marketplace in Claude Code's format (test/fixtures/plugins/team-market: two plugins with
// commands, an agent, a skill, shell and Python PreToolUse hooks, a stdio MCP server) added and
// installed through `cairn plugin`, then used by headless runs of the built cairn.
const MARKET = resolve('test/fixtures/plugins/team-market');
const hasPython = (() => {
  try {
    execFileSync('python3', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

const prompts = (events: AgentEvent[]): string[] => events.flatMap((e) => (e.type === 'user_prompt' ? [e.text] : []));
const results = (events: AgentEvent[]): string[] => events.flatMap((e) => (e.type === 'tool_result' ? [`${e.name}: ${e.content}`] : []));

async function setUp() {
  const ws = await tempWorkspace();
  // HOME too: the machine's own ~/.claude (plugins, settings) must not leak in.
  const opts = { cwd: ws.dir, home: ws.home, env: { HOME: ws.home, MCP_TIMEOUT: '10000' }, timeoutMs: 90_000 };
  const cli = (...args: string[]) => runCairn(['plugin', ...args], opts);
  const ask = (prompt: string, ...flags: string[]) => runCairn(['-p', prompt, '--output-format', 'stream-json', ...flags], opts);
  return { ws, cli, ask };
}

describe('plugins from a marketplace, headless', () => {
  it('added and installed through the CLI: the command, the hooks and the MCP tool work once enabled, and none is there once disabled', async () => {
    const { ws, cli, ask } = await setUp();
    const added = await cli('marketplace', 'add', MARKET);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added marketplace team-tools (2 plugins: fmt, dbtools)');
    expect((await cli('install', 'fmt@team-tools')).stdout).toContain('Installed fmt@team-tools 1.2.0');
    // A bare name found in one marketplace is enough.
    expect((await cli('install', 'dbtools')).stdout).toContain('Installed dbtools@team-tools 0.3.0');
    // Installed copies, pinned to the version: a change to the marketplace's folder does not reach them.
    expect(existsSync(join(ws.home, 'plugins', 'cache', 'team-tools', 'fmt', '1.2.0', 'commands', 'greet.md'))).toBe(true);
    expect((await cli('disable', 'fmt')).stdout).toContain('Disabled fmt@team-tools');
    expect((await cli('enable', 'fmt@team-tools')).code).toBe(0);
    const list = await cli('list');
    expect(list.stdout).toContain('fmt@team-tools 1.2.0: enabled');
    expect(list.stdout).toContain('1 command (/fmt:greet); 1 skill (/fmt:style-guide); 1 agent (fmt:reviewer); 1 hook event (PreToolUse)');
    expect(list.stdout).toContain('2 commands (/dbtools:db:query, /dbtools:explain); 1 MCP server (plugin_dbtools_notes)');

    // The command: namespaced, and by its bare name since no other command has it; frontmatter read, $ARGUMENTS filled.
    const greet = await ask('/fmt:greet Ada');
    expect(greet.code).toBe(0);
    expect(prompts(greet.events)[0]).toBe('/fmt:greet Ada\n\n# Greeting\n\nSay hello to Ada in the house style: one line, no emoji.');
    expect(prompts((await ask('/greet Grace')).events)[0]).toContain('Say hello to Grace in the house style');
    // A custom command path from the manifest, and positional arguments in a subfolder's command.
    expect(prompts((await ask('/dbtools:explain select 1')).events)[0]).toContain('Explain the plan of: select 1');
    expect(prompts((await ask('/dbtools:db:query users active')).events)[0]).toContain('Query the users table for rows matching active');

    // The hook, through ${CLAUDE_PLUGIN_ROOT}: it blocks a command naming a push even though Bash is allowed; other commands run.
    const push = await ask('run echo git push origin main', '--allowed-tools', 'Bash');
    const pushHook = push.events.find((e) => e.type === 'hook' && e.outcome === 'blocked');
    expect(pushHook).toMatchObject({ hook_event: 'PreToolUse', text: 'fmt plugin: pushes go through CI, not the agent' });
    expect(results(push.events)[0]).toMatch(/^bash: .*pushes go through CI/);
    const echo = await ask('run echo plugin-ok', '--allowed-tools', 'Bash');
    expect(results(echo.events)[0]).toContain('plugin-ok');
    // The Python hook ran for both calls (hooks of one event run side by side, the guard's block does not stop it).
    if (hasPython) expect((await readFile(join(ws.dir, 'commands.log'), 'utf8')).split('\n').sort()).toEqual(['', 'PreToolUse Bash: echo git push origin main', 'PreToolUse Bash: echo plugin-ok']);

    // The MCP server, named as Claude Code names a plugin's: mcp__plugin_<plugin>_<server>__<tool>.
    const mcp = await ask('use mcp tool mcp__plugin_dbtools_notes__lookup {"key": "k1"}', '--allowed-tools', 'mcp__plugin_dbtools_notes');
    const installed = join(ws.home, 'plugins', 'cache', 'team-tools', 'dbtools', '0.3.0');
    expect(results(mcp.events)[0]).toBe(`mcp__plugin_dbtools_notes__lookup: note k1: hello from the notes server (plugin root ${installed})`);

    // The agent and the skill are offered with their plugin's name.
    const start = greet.events.find((e) => e.type === 'session_start');
    expect(start?.type === 'session_start' && start.tools).toContain('mcp__plugin_dbtools_notes__lookup');

    // Disabled: the command is plain text to the model, no hook runs, no server starts.
    await cli('disable', 'fmt@team-tools');
    await cli('disable', 'dbtools@team-tools');
    expect((await cli('list')).stdout).toContain('fmt@team-tools 1.2.0: disabled');
    const off = await ask('/fmt:greet Ada');
    expect(prompts(off.events)[0]).toBe('/fmt:greet Ada');
    const pushOff = await ask('run echo git push origin main', '--allowed-tools', 'Bash');
    expect(pushOff.events.some((e) => e.type === 'hook')).toBe(false);
    expect(results(pushOff.events)[0]).toContain('git push origin main');
    const mcpOff = await ask('use mcp tool mcp__plugin_dbtools_notes__lookup {"key": "k1"}', '--allowed-tools', 'mcp__plugin_dbtools_notes');
    expect(results(mcpOff.events)[0]).not.toContain('hello from the notes server');

    // Uninstalled: its copy is gone and the switch with it.
    expect((await cli('uninstall', 'fmt@team-tools')).stdout).toContain('Uninstalled fmt@team-tools');
    expect(existsSync(join(ws.home, 'plugins', 'cache', 'team-tools', 'fmt', '1.2.0'))).toBe(false);
    expect(JSON.parse(await readFile(join(ws.home, 'settings.json'), 'utf8'))).toEqual({ enabledPlugins: { 'dbtools@team-tools': false } });
  }, 300_000);

  it('a marketplace in a git repository is fetched with git from a file:// URL; update installs the new version', async () => {
    const { ws, cli, ask } = await setUp();
    const repo = join(ws.home, '..', 'market-repo');
    await cp(MARKET, repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'market');
    expect((await cli('marketplace', 'add', `file://${repo}`)).stdout).toContain('Added marketplace team-tools');
    expect(existsSync(join(ws.home, 'plugins', 'marketplaces', 'team-tools', '.claude-plugin', 'marketplace.json'))).toBe(true);
    expect((await cli('install', 'fmt@team-tools')).code).toBe(0);
    // A new version in the repository: the installed copy stays until update.
    const manifest = join(repo, 'plugins', 'fmt', '.claude-plugin', 'plugin.json');
    await writeFile(manifest, (await readFile(manifest, 'utf8')).replace('1.2.0', '1.3.0'));
    await writeFile(join(repo, 'plugins', 'fmt', 'commands', 'greet.md'), '---\ndescription: Greet\n---\nHi there, $ARGUMENTS.\n');
    git('commit', '-qam', 'fmt 1.3.0');
    expect(prompts((await ask('/fmt:greet Ada')).events)[0]).toContain('Say hello to Ada');
    expect((await cli('update', 'fmt')).stdout).toContain('Updated fmt@team-tools from 1.2.0 to 1.3.0');
    expect(prompts((await ask('/fmt:greet Ada')).events)[0]).toContain('Hi there, Ada.');
    expect(existsSync(join(ws.home, 'plugins', 'cache', 'team-tools', 'fmt', '1.2.0'))).toBe(false);
  }, 120_000);

  it('a marketplace that cannot be fetched, or a plugin it does not list, is a message naming it', async () => {
    const { ws, cli } = await setUp();
    const missing = await cli('marketplace', 'add', `file://${join(ws.home, 'nowhere')}`);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot fetch the marketplace from file://${join(ws.home, 'nowhere')}`);
    await cli('marketplace', 'add', MARKET);
    const unknown = await cli('install', 'nope@team-tools');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no plugin named "nope" in marketplace team-tools');
    const noMarket = await cli('install', 'fmt@elsewhere');
    expect(noMarket.stderr).toContain('no marketplace named "elsewhere" has been added');
  }, 60_000);
});
