// extraKnownMarketplaces: a marketplace the settings name is added when one of its plugins is
// installed; a repository's own settings name one only once the folder is trusted.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runPluginCommand } from '../../../src/plugins/plugin-command.js';
import { trustWorkspace } from '../../../src/settings/workspace-trust.js';
import { settleWorkspaceTrust } from '../../../src/runtime/workspace-settings.js';

const MARKET = path.resolve('test/fixtures/plugins/team-market');
let base: string;
let cwd: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-extra-market-')));
  cwd = path.join(base, 'repo');
  await fs.mkdir(path.join(cwd, '.claude'), { recursive: true });
  env = { HOME: base, CAIRN_HOME: path.join(base, 'cairn'), CLAUDE_CONFIG_DIR: path.join(base, 'claude') };
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function plugin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runPluginCommand(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env, cwd });
  return { code, out, err };
}

const named = { extraKnownMarketplaces: { 'team-tools': { source: { source: 'directory', path: MARKET } } } };

describe('extraKnownMarketplaces', () => {
  it("named in the user's settings: installing name@marketplace adds the marketplace first", async () => {
    await fs.mkdir(path.join(base, 'cairn'), { recursive: true });
    await fs.writeFile(path.join(base, 'cairn', 'settings.json'), JSON.stringify(named));
    const done = await plugin('install', 'fmt@team-tools');
    expect(done.err).toBe('');
    expect(done.out).toContain('Installed fmt@team-tools 1.2.0');
  });

  it("named by a repository's settings: nothing until the folder is trusted, and the trust question names it", async () => {
    await fs.writeFile(path.join(cwd, '.claude', 'settings.json'), JSON.stringify(named));
    const refused = await plugin('install', 'fmt@team-tools');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('no marketplace named "team-tools" has been added');
    const notices: string[] = [];
    await settleWorkspaceTrust({ cwd, cairnHome: path.join(base, 'cairn'), claudeHome: path.join(base, 'claude'), notices });
    expect(notices.join('\n')).toContain(`${path.join(cwd, '.claude', 'settings.json')}: extraKnownMarketplaces (team-tools)`);
    await trustWorkspace({ workspace: cwd, cairnHome: path.join(base, 'cairn'), homeDir: base });
    expect((await plugin('install', 'fmt@team-tools')).out).toContain('Installed fmt@team-tools 1.2.0');
  });
});
