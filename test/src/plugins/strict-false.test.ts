// Marketplace entries with `strict: false`: the entry is the plugin's whole definition (its
// commands/agents/hooks/mcpServers paths); the folder needs no .claude-plugin/plugin.json. Paths in
// an entry stay inside the plugin's folder: one that leaves it (../) or is absolute is refused,
// naming the marketplace, the plugin and the field.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pluginCli } from '../../helpers/plugin-cli.js';

const MARKET = path.resolve('test/fixtures/plugins/loose-market');
const { rig, plugin } = pluginCli('strict-false');

async function write(file: string, content: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
}

describe('strict: false marketplace entries', () => {
  it('installs a plugin folder without plugin.json: the command and agent the entry names are there', async () => {
    await expect(fs.stat(path.join(MARKET, 'review-kit', '.claude-plugin'))).rejects.toThrow();
    expect((await plugin('marketplace', 'add', MARKET)).code).toBe(0);
    const done = await plugin('install', 'review-kit@loose-tools');
    expect(done.err).toBe('');
    expect(done.out).toContain('Installed review-kit@loose-tools 0.3.0');
    const list = await plugin('list');
    expect(list.out).toContain('review-kit@loose-tools 0.3.0: enabled');
    expect(list.out).toContain('1 command (/review-kit:review)');
    expect(list.out).toContain('1 agent (review-kit:reviewer)');
    // The marketplace's folder is not written to.
    await expect(fs.stat(path.join(MARKET, 'review-kit', '.claude-plugin'))).rejects.toThrow();
  });

  it('an entry path that leaves the plugin folder, or is absolute, is refused naming marketplace, plugin and field; the others install', async () => {
    const added = await plugin('marketplace', 'add', MARKET);
    expect(added.code).toBe(0);
    expect(added.out).toContain('(1 plugin: review-kit)');
    expect(added.err).toMatch(/marketplace loose-tools: plugin escaper: "commands": "\.\.\/\.\.\/team-market\/plugins\/fmt\/commands" leaves the plugin's folder/);
    expect(added.err).toMatch(/marketplace loose-tools: plugin rooted: "agents": "\/etc\/cairn-agents" is an absolute path/);
    const escaper = await plugin('install', 'escaper@loose-tools');
    expect(escaper.code).toBe(1);
    expect(escaper.err).toContain('marketplace loose-tools: plugin escaper: "commands"');
    const rooted = await plugin('install', 'rooted@loose-tools');
    expect(rooted.code).toBe(1);
    expect(rooted.err).toContain('marketplace loose-tools: plugin rooted: "agents"');
    expect((await plugin('install', 'review-kit@loose-tools')).code).toBe(0);
    expect((await plugin('list')).out).not.toContain('/fmt:');
  });

  it('strict: false with a plugin.json that also names components is a conflict, naming both files', async () => {
    const market = path.join(rig.base, 'market');
    await write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'clash', owner: { name: 'x' }, plugins: [{ name: 'both', source: './both', strict: false, commands: './cmds' }] });
    await write(path.join(market, 'both', '.claude-plugin', 'plugin.json'), { name: 'both', commands: './other' });
    await write(path.join(market, 'both', 'cmds', 'hi.md'), 'Say hi');
    expect((await plugin('marketplace', 'add', market)).code).toBe(0);
    const done = await plugin('install', 'both@clash');
    expect(done.code).toBe(1);
    expect(done.err).toContain('marketplace clash: plugin both: the entry has "strict": false');
    expect(done.err).toContain('plugin.json also declares "commands"');
  });

  it('strict (the default): the entry\'s component paths add to plugin.json\'s', async () => {
    const market = path.join(rig.base, 'market');
    await write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'merged', owner: { name: 'x' }, plugins: [{ name: 'mix', source: './mix', commands: './more' }] });
    await write(path.join(market, 'mix', '.claude-plugin', 'plugin.json'), { name: 'mix', version: '2.0.0', agents: './people' });
    await write(path.join(market, 'mix', 'commands', 'base.md'), 'Base');
    await write(path.join(market, 'mix', 'more', 'extra.md'), 'Extra');
    await write(path.join(market, 'mix', 'people', 'helper.md'), '---\nname: helper\ndescription: helps\n---\nHelp.');
    expect((await plugin('marketplace', 'add', market)).code).toBe(0);
    expect((await plugin('install', 'mix@merged')).out).toContain('Installed mix@merged 2.0.0');
    const list = (await plugin('list')).out;
    expect(list).toContain('2 commands (/mix:base, /mix:extra)');
    expect(list).toContain('1 agent (mix:helper)');
  });
});
