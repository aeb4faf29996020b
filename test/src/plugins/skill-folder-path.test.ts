// A plugin manifest's `skills` may name one skill's folder (the folder holding SKILL.md) as well as a
// folder of skill folders, as Claude Code's plugin reference allows; both load, namespaced.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runPluginCommand } from '../../../src/plugins/plugin-command.js';

let base: string;
let env: NodeJS.ProcessEnv;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-skill-path-')));
  env = { HOME: base, CAIRN_HOME: path.join(base, 'cairn'), CLAUDE_CONFIG_DIR: path.join(base, 'claude') };
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function plugin(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runPluginCommand(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, env, cwd: base });
  return { code, out, err };
}

async function write(file: string, content: unknown): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
}

const skill = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\nDo ${name}.\n`;

it('a skills path naming one skill folder loads that skill beside those of a folder of skills', async () => {
  const market = path.join(base, 'market');
  await write(path.join(market, '.claude-plugin', 'marketplace.json'), { name: 'tools', owner: { name: 'x' }, plugins: [{ name: 'ship', source: './ship' }] });
  await write(path.join(market, 'ship', '.claude-plugin', 'plugin.json'), { name: 'ship', version: '1.0.0', skills: ['./custom/deploy', './more'] });
  await write(path.join(market, 'ship', 'custom', 'deploy', 'SKILL.md'), skill('deploy'));
  await write(path.join(market, 'ship', 'custom', 'deploy', 'scripts', 'run.sh'), 'echo deploy');
  await write(path.join(market, 'ship', 'more', 'rollback', 'SKILL.md'), skill('rollback'));
  expect((await plugin('marketplace', 'add', market)).code).toBe(0);
  const done = await plugin('install', 'ship@tools');
  expect(done.err).toBe('');
  const list = await plugin('list');
  expect(list.out).toContain('/ship:deploy');
  expect(list.out).toContain('/ship:rollback');
  expect(list.out).not.toContain('/ship:scripts');
});
