// Plugins a user installed for Claude Code, read in place from ~/.claude/plugins/installed_plugins.json
// in its real version 2 shape: a list of installs per plugin, one per scope, where a `project` or
// `local` install (with `projectPath`) holds only in that project. The one for this workspace wins,
// then the user's; another project's install is not used here (it used to shadow the user's).
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { activePlugins } from '../../../src/plugins/active-plugins.js';

let base: string;
let cwd: string;
let claudeHome: string;
let env: NodeJS.ProcessEnv;

const write = async (file: string, text: string | object): Promise<void> => {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, typeof text === 'string' ? text : JSON.stringify(text));
};

/** A plugin version in Claude Code's cache, with one command saying which version it is. */
async function cached(version: string): Promise<string> {
  const root = path.join(claudeHome, 'plugins', 'cache', 'team', 'kit', version);
  await write(path.join(root, '.claude-plugin', 'plugin.json'), { name: 'kit', version });
  await write(path.join(root, 'commands', `v${version.replaceAll('.', '-')}.md`), `Version ${version}`);
  return root;
}

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-claude-scopes-')));
  cwd = path.join(base, 'ws');
  claudeHome = path.join(base, 'claude');
  await fs.mkdir(cwd, { recursive: true });
  env = { HOME: base, CLAUDE_CONFIG_DIR: claudeHome };
  await write(path.join(claudeHome, 'settings.json'), { enabledPlugins: { 'kit@team': true } });
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

const record = (installs: object[]) => write(path.join(claudeHome, 'plugins', 'installed_plugins.json'), { version: 2, plugins: { 'kit@team': installs } });
const loadedFrom = async () => {
  const active = await activePlugins({ cwd, cairnHome: path.join(base, 'cairn'), env, trusted: true });
  return { roots: active.plugins.map((p) => p.root), problems: active.problems };
};

it("another project's install listed first does not shadow the user's", async () => {
  const old = await cached('1.0.0');
  const current = await cached('1.10.0');
  await record([
    { scope: 'project', projectPath: path.join(base, 'elsewhere'), installPath: old, version: '1.0.0', installedAt: '2026-01-01T00:00:00Z', lastUpdated: '2026-01-01T00:00:00Z' },
    { scope: 'user', installPath: current, version: '1.10.0', installedAt: '2026-04-01T00:00:00Z', lastUpdated: '2026-04-01T00:00:00Z', gitCommitSha: 'abc123' },
  ]);
  expect((await loadedFrom()).roots).toEqual([current]);
});

it("this project's install wins over the user's", async () => {
  const user = await cached('1.10.0');
  const here = await cached('2.0.0');
  await record([{ scope: 'user', installPath: user, version: '1.10.0' }, { scope: 'local', projectPath: cwd, installPath: here, version: '2.0.0' }]);
  expect((await loadedFrom()).roots).toEqual([here]);
});

it('installed for another project only: not loaded here, said as not installed (not as a broken file)', async () => {
  const old = await cached('1.0.0');
  await record([{ scope: 'project', projectPath: path.join(base, 'elsewhere'), installPath: old, version: '1.0.0' }]);
  const { roots, problems } = await loadedFrom();
  expect(roots).toEqual([]);
  expect(problems.join('\n')).toContain('plugin kit@team: enabled in');
  expect(problems.join('\n')).not.toContain('passed over');
});
