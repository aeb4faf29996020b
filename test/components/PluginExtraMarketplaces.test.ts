// /plugin lists the marketplaces extraKnownMarketplaces names that are not added yet (marked so);
// choosing a plugin there adds the marketplace, then installs it. A repository's own settings count
// only once the folder is trusted.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPluginActions } from '../../components/commands/plugin-command.js';
import type { PluginRow } from '../../components/commands/plugin-actions.js';
import { createTheme } from '../../components/theme/theme.js';
import { pluginLines } from '../../components/transcript/plugin-lines.js';
import { isWorkspaceTrusted, trustWorkspace } from '../../src/settings/workspace-trust.js';

const TEAM = path.resolve('test/fixtures/plugins/team-market');
const LOOSE = path.resolve('test/fixtures/plugins/loose-market');
let base: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
const cairnHome = (): string => path.join(base, 'cairn');

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-plugin-extra-')));
  cwd = path.join(base, 'repo');
  await fs.mkdir(path.join(cwd, '.claude'), { recursive: true });
  env = { HOME: base, CAIRN_HOME: cairnHome(), CLAUDE_CONFIG_DIR: path.join(base, 'claude') };
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

function actions() {
  let reloads = 0;
  const a = createPluginActions({ cwd, cairnHome: cairnHome(), env, trusted: () => isWorkspaceTrusted({ workspace: cwd, cairnHome: cairnHome(), claudeHome: path.join(base, 'claude') }), reload: async () => void reloads++ });
  return { a, reloads: () => reloads };
}

const row = (rows: PluginRow[], id: string): PluginRow | undefined => rows.find((r) => r.id === id);

describe('/plugin and extraKnownMarketplaces', () => {
  it("a repository's marketplaces appear only once trusted, marked not added; Enter adds the marketplace and installs", async () => {
    // A git marketplace too: listed as one row until added (its plugins are known once fetched).
    const repo = path.join(base, 'loose-repo');
    await fs.cp(LOOSE, repo, { recursive: true });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'market');
    await fs.writeFile(
      path.join(cwd, '.claude', 'settings.json'),
      JSON.stringify({ extraKnownMarketplaces: { 'team-tools': { source: { source: 'directory', path: TEAM } }, 'loose-tools': { source: { source: 'git', url: `file://${repo}` } } } }),
    );
    const { a, reloads } = actions();
    const untrusted = await a.rows();
    expect(untrusted.map((r) => r.id)).toEqual([]);
    // A row forged for an untrusted folder's marketplace installs nothing.
    const refused = await a.toggle({ id: 'fmt@team-tools', description: '', contents: '', installed: false, enabled: false, notAdded: true });
    expect(refused).toContain('no marketplace named "team-tools" has been added');

    await trustWorkspace({ workspace: cwd, cairnHome: cairnHome(), homeDir: base });
    const rows = await a.rows();
    expect(rows.map((r) => r.id)).toEqual(['fmt@team-tools', 'dbtools@team-tools', '@loose-tools']);
    expect(row(rows, 'fmt@team-tools')).toMatchObject({ notAdded: true, installed: false, version: '1.2.0' });
    expect(row(rows, 'fmt@team-tools')?.contents).toBe(`marketplace team-tools is named in ${path.join(cwd, '.claude', 'settings.json')} and not added yet: Enter adds it and installs this plugin`);
    expect(row(rows, '@loose-tools')?.contents).toContain(`adds it (from file://${repo}) and lists its plugins`);
    const screen = pluginLines({ kind: 'plugins', rows, index: 0 }, 160, createTheme('dark', {}), 20).join('\n');
    expect(screen).toContain('[not added] fmt@team-tools 1.2.0');

    expect(await a.toggle(rows[0] as PluginRow)).toBe('Installed and enabled fmt@team-tools 1.2.0.');
    expect(reloads()).toBe(1);
    const after = await a.rows();
    expect(row(after, 'fmt@team-tools')).toMatchObject({ installed: true, enabled: true });
    expect(row(after, 'fmt@team-tools')?.notAdded).toBeUndefined();
    expect(row(after, 'dbtools@team-tools')?.notAdded).toBeUndefined();

    expect(await a.toggle(row(after, '@loose-tools') as PluginRow)).toBe('Added marketplace loose-tools (1 plugin); choose one to install.');
    const added = await a.rows();
    expect(row(added, '@loose-tools')).toBeUndefined();
    expect(row(added, 'review-kit@loose-tools')).toMatchObject({ installed: false, version: '0.3.0' });
    expect(row(added, 'review-kit@loose-tools')?.notAdded).toBeUndefined();
  });

  it("the user's own settings: listed at once, and installing adds the marketplace", async () => {
    await fs.mkdir(cairnHome(), { recursive: true });
    await fs.writeFile(path.join(cairnHome(), 'settings.json'), JSON.stringify({ extraKnownMarketplaces: { 'loose-tools': { source: { source: 'directory', path: LOOSE } } } }));
    const { a } = actions();
    const rows = await a.rows();
    expect(rows.map((r) => `${r.id}${r.notAdded ? ' (not added)' : ''}`)).toEqual(['review-kit@loose-tools (not added)']);
    expect(await a.toggle(rows[0] as PluginRow)).toBe('Installed and enabled review-kit@loose-tools 0.3.0.');
    expect((await a.rows()).map((r) => `${r.id} ${r.installed ? 'installed' : ''}`)).toEqual(['review-kit@loose-tools installed']);
  });
});
