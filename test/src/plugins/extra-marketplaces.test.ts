// extraKnownMarketplaces: a marketplace the settings name is added when one of its plugins is
// installed; a repository's own settings name one only once the folder is trusted.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginCli } from '../../helpers/plugin-cli.js';
import { trustWorkspace } from '../../../src/settings/workspace-trust.js';
import { settleWorkspaceTrust } from '../../../src/runtime/workspace-settings.js';

const MARKET = path.resolve('test/fixtures/plugins/team-market');
const { rig, plugin } = pluginCli('extra-market', { cwd: 'repo' });

const named = { extraKnownMarketplaces: { 'team-tools': { source: { source: 'directory', path: MARKET } } } };

describe('extraKnownMarketplaces', () => {
  it("named in the user's settings: installing name@marketplace adds the marketplace first", async () => {
    await fs.mkdir(path.join(rig.base, 'cairn'), { recursive: true });
    await fs.writeFile(path.join(rig.base, 'cairn', 'settings.json'), JSON.stringify(named));
    const done = await plugin('install', 'fmt@team-tools');
    expect(done.err).toBe('');
    expect(done.out).toContain('Installed fmt@team-tools 1.2.0');
  });

  it("named by a repository's settings: nothing until the folder is trusted, and the trust question names it", async () => {
    await fs.mkdir(path.join(rig.cwd, '.claude'));
    await fs.writeFile(path.join(rig.cwd, '.claude', 'settings.json'), JSON.stringify(named));
    const refused = await plugin('install', 'fmt@team-tools');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('no marketplace named "team-tools" has been added');
    const notices: string[] = [];
    await settleWorkspaceTrust({ cwd: rig.cwd, cairnHome: path.join(rig.base, 'cairn'), claudeHome: path.join(rig.base, 'claude'), notices });
    expect(notices.join('\n')).toContain(`${path.join(rig.cwd, '.claude', 'settings.json')}: extraKnownMarketplaces (team-tools)`);
    await trustWorkspace({ workspace: rig.cwd, cairnHome: path.join(rig.base, 'cairn'), homeDir: rig.base });
    expect((await plugin('install', 'fmt@team-tools')).out).toContain('Installed fmt@team-tools 1.2.0');
  });
});
