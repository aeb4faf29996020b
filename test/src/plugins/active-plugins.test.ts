import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { activePlugins } from '../../../src/plugins/active-plugins.js';
import { loadPlugin } from '../../../src/plugins/plugin-load.js';
import { settleWorkspaceTrust } from '../../../src/runtime/workspace-settings.js';

// Plugins as a session finds them: enabledPlugins from the settings layers, resolved through the
// install records, each folder read; bad input named by plugin and file while the rest loads.
let base: string;
let cwd: string;
let cairnHome: string;
let env: NodeJS.ProcessEnv;

const write = async (file: string, text: string | object): Promise<void> => {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, typeof text === 'string' ? text : JSON.stringify(text));
};

/** A plugin folder with a command, installed in cairn's record under `name@m`. */
async function installed(name: string, files: Record<string, string | object> = {}): Promise<string> {
  const root = path.join(base, 'plugins', name);
  await write(path.join(root, 'commands', 'hello.md'), '---\ndescription: hi\n---\nhello $ARGUMENTS');
  for (const [rel, text] of Object.entries(files)) await write(path.join(root, rel), text);
  const record = path.join(cairnHome, 'plugins', 'installed_plugins.json');
  const current = JSON.parse(await fs.readFile(record, 'utf8').catch(() => '{"version":2,"plugins":{}}')) as { plugins: Record<string, unknown> };
  current.plugins[`${name}@m`] = [{ scope: 'user', installPath: root, version: '1.0.0' }];
  await write(record, current);
  return root;
}

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-plugins-')));
  cwd = path.join(base, 'ws');
  cairnHome = path.join(base, 'home');
  await fs.mkdir(cwd, { recursive: true });
  env = { HOME: base, CLAUDE_CONFIG_DIR: path.join(base, 'claude') };
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('enabledPlugins and trust', () => {
  it("the user's settings enable a plugin; a more specific file's false turns it off", async () => {
    await installed('alpha');
    await write(path.join(cairnHome, 'settings.json'), { enabledPlugins: { 'alpha@m': true } });
    expect((await activePlugins({ cwd, cairnHome, env, trusted: true })).plugins.map((p) => p.id)).toEqual(['alpha@m']);
    await write(path.join(cwd, '.claude', 'settings.local.json'), { enabledPlugins: { 'alpha@m': false } });
    expect((await activePlugins({ cwd, cairnHome, env, trusted: true })).plugins).toEqual([]);
  });

  it("a repository's settings cannot enable a plugin until the folder is trusted, and the trust question names it", async () => {
    await installed('evil', { 'hooks/hooks.json': { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch pwned' }] }] } } });
    await write(path.join(cwd, '.claude', 'settings.json'), { enabledPlugins: { 'evil@m': true } });
    expect((await activePlugins({ cwd, cairnHome, env, trusted: false })).plugins).toEqual([]);
    const notices: string[] = [];
    expect(await settleWorkspaceTrust({ cwd, cairnHome, claudeHome: path.join(base, 'claude'), notices })).toBe(false);
    expect(notices.join('\n')).toContain(`${path.join(cwd, '.claude', 'settings.json')}: enabledPlugins (evil@m)`);
    expect((await activePlugins({ cwd, cairnHome, env, trusted: true })).plugins.map((p) => p.id)).toEqual(['evil@m']);
  });

  it("plugins installed for Claude Code are found in place, under Claude Code's folder", async () => {
    const root = path.join(base, 'claude', 'plugins', 'cache', 'm', 'cc', '2.0.0');
    await write(path.join(root, '.claude-plugin', 'plugin.json'), { name: 'cc', version: '2.0.0' });
    await write(path.join(base, 'claude', 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'cc@m': [{ scope: 'user', installPath: root, version: '2.0.0' }] } });
    await write(path.join(base, 'claude', 'settings.json'), { enabledPlugins: { 'cc@m': true } });
    const found = await activePlugins({ cwd, cairnHome, env, trusted: false });
    expect(found.plugins.map((p) => [p.id, p.root, p.version])).toEqual([['cc@m', root, '2.0.0']]);
  });
});

describe('bad input: named by plugin and file, the rest loads', () => {
  it('a broken manifest skips that plugin only; an enabled plugin that is not installed is named with the command that installs it', async () => {
    const bad = await installed('bad', { '.claude-plugin/plugin.json': '{ "name": "bad", ' });
    await installed('good');
    await write(path.join(cairnHome, 'settings.json'), { enabledPlugins: { 'bad@m': true, 'good@m': true, 'ghost@m': true } });
    const found = await activePlugins({ cwd, cairnHome, env, trusted: true });
    expect(found.plugins.map((p) => p.id)).toEqual(['good@m']);
    expect(found.problems).toEqual([
      expect.stringMatching(new RegExp(`^plugin bad@m: ${path.join(bad, '.claude-plugin', 'plugin.json')}: invalid JSON: .*; the plugin is not loaded$`)),
      'plugin ghost@m: enabled in ' + path.join(cairnHome, 'settings.json') + ' but not installed; install it with cairn plugin install ghost@m',
    ]);
  });

  it('a custom path that is missing or outside the plugin, and hooks of an unknown shape, are passed over; the rest of the plugin loads', async () => {
    const root = await installed('odd', {
      '.claude-plugin/plugin.json': { name: 'odd', commands: ['./nope/', '../../etc'], hooks: './hooks/extra.json' },
      'hooks/hooks.json': { hooks: { PreToolUse: { matcher: 'Bash' }, BeforeEverything: [] } },
      'hooks/extra.json': { hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}"/after.sh' }] }] } },
    });
    const { plugin, problems } = await loadPlugin(root, 'odd@m', env);
    const manifest = path.join(root, '.claude-plugin', 'plugin.json');
    expect(problems).toEqual([
      `plugin odd@m: ${manifest}: "commands": "../../etc" is outside the plugin's folder; ignored`,
      `plugin odd@m: ${path.join(root, 'hooks', 'hooks.json')}: hooks.PreToolUse: expected an array of {matcher, hooks}; this hook is not loaded`,
      expect.stringMatching(new RegExp(`^plugin odd@m: ${path.join(root, 'hooks', 'hooks.json')}: hooks.BeforeEverything: unknown event`)),
      `plugin odd@m: ${manifest}: "commands": nope does not exist; passed over`,
    ]);
    expect(plugin?.commandPaths).toEqual([path.join(root, 'commands')]);
    // The hook that is well formed runs in the plugin's folder.
    expect(plugin?.hooks).toEqual([expect.objectContaining({ event: 'PostToolUse', command: '"${CLAUDE_PLUGIN_ROOT}"/after.sh', env: { CLAUDE_PLUGIN_ROOT: root } })]);
  });

  it("two plugins of one name: the second is named and not loaded (their commands would share /<name>:)", async () => {
    await installed('one', { '.claude-plugin/plugin.json': { name: 'same' } });
    await installed('two', { '.claude-plugin/plugin.json': { name: 'same' } });
    await write(path.join(cairnHome, 'settings.json'), { enabledPlugins: { 'one@m': true, 'two@m': true } });
    const found = await activePlugins({ cwd, cairnHome, env, trusted: true });
    expect(found.plugins.map((p) => p.id)).toEqual(['one@m']);
    expect(found.problems).toEqual(['plugin two@m: its name "same" is taken by plugin one@m; not loaded (disable one of them)']);
  });

  it("an MCP server's ${CLAUDE_PLUGIN_ROOT} is the plugin's folder, and the server is named plugin_<plugin>_<server>", async () => {
    const root = await installed('db', { '.mcp.json': { mcpServers: { notes: { command: '${CLAUDE_PLUGIN_ROOT}/server', args: ['--root', '${CLAUDE_PLUGIN_ROOT}'] } } } });
    const { plugin } = await loadPlugin(root, 'db@m', env);
    expect(plugin?.mcpServers).toEqual([
      expect.objectContaining({ name: 'plugin_db_notes', config: { transport: 'stdio', command: `${root}/server`, args: ['--root', root], env: { CLAUDE_PLUGIN_ROOT: root } } }),
    ]);
  });
});

describe('--plugin-dir', () => {
  afterEach(async () => {
    const { setCommandLineSettings } = await import('../../../src/settings/settings-layers.js');
    await setCommandLineSettings({ cwd });
  });

  it('loads a plugin from a folder for this session only (no install, no enabledPlugins), its hooks named by the plugin in /hooks', async () => {
    const { setCommandLineSettings } = await import('../../../src/settings/settings-layers.js');
    const { PLUGIN_DIRS_KEY } = await import('../../../src/plugins/active-plugins.js');
    const root = path.join(base, 'dev', 'lint-kit');
    await write(path.join(root, '.claude-plugin', 'plugin.json'), { name: 'lint-kit' });
    await write(path.join(root, 'commands', 'lint.md'), 'Lint $ARGUMENTS');
    await write(path.join(root, 'hooks', 'hooks.json'), { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '${CLAUDE_PLUGIN_ROOT}/guard.sh' }] }] } });
    expect((await activePlugins({ cwd, cairnHome, env, trusted: true })).plugins).toEqual([]);
    await setCommandLineSettings({ cwd, extra: { [PLUGIN_DIRS_KEY]: [root] } });
    const active = await activePlugins({ cwd, cairnHome, env, trusted: false });
    expect(active.problems).toEqual([]);
    const [plugin] = active.plugins;
    expect(plugin).toMatchObject({ id: 'lint-kit@--plugin-dir', name: 'lint-kit', root });
    expect(plugin?.hooks).toEqual([expect.objectContaining({ event: 'PreToolUse', origin: 'plugin lint-kit@--plugin-dir', env: { CLAUDE_PLUGIN_ROOT: root } })]);
  });

  it("a settings file's own \"--plugin-dir\" key is never read: only the command line names folders", async () => {
    const root = path.join(base, 'dev', 'sneaky');
    await write(path.join(root, 'commands', 'x.md'), 'x');
    await write(path.join(cwd, '.claude', 'settings.json'), { '--plugin-dir': [root] });
    await write(path.join(cairnHome, 'settings.json'), { '--plugin-dir': [root] });
    expect((await activePlugins({ cwd, cairnHome, env, trusted: true })).plugins).toEqual([]);
  });
});
