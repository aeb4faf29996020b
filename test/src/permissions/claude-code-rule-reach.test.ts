import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { decideBash } from '../../helpers/permission-tools.js';

// Two places where cairn read Claude Code's rules more narrowly than Claude Code (issue 30, item 19):
// a bare glob (`Edit(*.md)`) matches at any depth, for allow as for deny, every tool; and
// `cd sub && npm run lint` under `Bash(npm run lint)` runs when `sub` is a folder inside the
// workspace. Every way around the second is asked as before.

let home: string;
let ws: string;
beforeAll(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-ccreach-')));
  ws = path.join(home, 'ws');
  await fs.mkdir(path.join(ws, 'sub', 'deeper'), { recursive: true });
  await fs.mkdir(path.join(ws, 'docs', 'guide'), { recursive: true });
  await fs.mkdir(path.join(home, 'outside'));
  await fs.writeFile(path.join(home, 'outside', 'secret.md'), 's\n');
  await fs.writeFile(path.join(ws, 'sub', 'notes.txt'), 'n\n');
  await fs.writeFile(path.join(ws, 'sub', 'run.sh'), 'rm -rf ~\n');
  await fs.writeFile(path.join(ws, 'run.sh'), 'echo fine\n');
  await fs.symlink(path.join(home, 'outside'), path.join(ws, 'out'));
  await fs.symlink(path.join(home, 'outside'), path.join(ws, 'sub', 'link'));
});
afterAll(() => fs.rm(home, { recursive: true, force: true }));

function checker(rules: { allow?: string[]; ask?: string[]; deny?: string[] }) {
  return createPermissionChecker({
    workspace: ws,
    mode: 'default',
    rules: { allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] },
    cairnHome: path.join(home, '.cairn-home'),
    homeDir: home,
  });
}

describe('a bare glob matches at any depth, for every list and tool', () => {
  const edit = createEditFileTool();
  const write = createWriteFileTool();
  const read = createReadFileTool();

  it('Edit(*.md) allows docs/x.md and docs/guide/y.md as it allows README.md (it asked before)', async () => {
    const c = checker({ allow: ['Edit(*.md)'] });
    for (const p of ['README.md', 'docs/x.md', 'docs/guide/y.md']) {
      expect((await c.check(edit, { path: p, old_string: 'a', new_string: 'b' })).behavior, p).toBe('allow');
      expect((await c.check(write, { path: p, content: 'x' })).behavior, p).toBe('allow');
    }
    expect((await c.check(edit, { path: 'docs/x.ts', old_string: 'a', new_string: 'b' })).behavior).toBe('ask');
  });

  it('it does not reach outside the workspace, through .. or a symbolic link', async () => {
    const c = checker({ allow: ['Edit(*.md)', 'Read(*.md)'] });
    for (const p of ['../outside/secret.md', 'out/secret.md', path.join(home, 'outside', 'secret.md')]) {
      expect((await c.check(write, { path: p, content: 'x' })).behavior, p).toBe('ask');
      expect((await c.check(read, { path: p })).behavior, p).toBe('ask');
    }
  });

  it('ask and deny read a bare glob the same way, and a rule with a slash stays anchored', async () => {
    const c = checker({ allow: ['Edit(docs/*.md)'], ask: ['Edit(*.lock)'], deny: ['Read(*.pem)'] });
    expect((await c.check(edit, { path: 'a/b/yarn.lock', old_string: 'a', new_string: 'b' })).behavior).toBe('ask');
    expect((await c.check(read, { path: 'certs/deep/key.pem' })).behavior).toBe('deny');
    expect((await c.check(edit, { path: 'docs/x.md', old_string: 'a', new_string: 'b' })).behavior).toBe('allow');
    expect((await c.check(edit, { path: 'docs/guide/y.md', old_string: 'a', new_string: 'b' })).behavior).toBe('ask');
  });
});

describe('cd into a folder inside the workspace, then an allowed command', () => {
  const lint = { allow: ['Bash(npm run lint)'] };

  it.each(['cd sub && npm run lint', 'cd sub/deeper && npm run lint', 'cd ./sub && npm run lint && npm run lint', 'cd sub/../sub && npm run lint'])(
    '%s runs under Bash(npm run lint) (it asked before)',
    async (command) => {
      const v = await decideBash(ws, { command, rules: lint, expected: 'allow' });
      expect(v).toMatchObject({ behavior: 'allow' });
    },
  );

  it.each([
    ['cd link && npm run lint', 'a symbolic link leading out'],
    ['cd out && npm run lint', 'a symbolic link leading out'],
    ['cd $DIR && npm run lint', 'a computed word'],
    ['cd "$(pwd)/sub" && npm run lint', 'a computed word'],
    ['cd sub* && npm run lint', 'a pattern'],
    ['cd ~ && npm run lint', 'home'],
    ['cd .. && npm run lint', 'the parent'],
    ['cd / && npm run lint', 'the root'],
    ['cd - && npm run lint', 'the previous folder'],
    ['cd missing && npm run lint', 'a folder that does not exist'],
    ['cd sub; rm -rf ~', 'a ; after the cd'],
    ['cd sub && npm run lint; rm -rf ~', 'a ; after the allowed command'],
    ['cd sub && npm run lint || rm -rf x', 'an || that runs when cd fails'],
    ['cd sub || npm run lint', 'an || instead of &&'],
    ['cd sub && npm run lint & rm -rf x', 'a background &'],
    ['cd sub\nnpm run lint', 'a newline instead of &&'],
    ['CDPATH=/ cd sub && npm run lint', 'CDPATH set for the cd'],
    ['export CDPATH=/tmp && cd sub && npm run lint', 'CDPATH exported before the cd'],
    ['cd -P sub && npm run lint', 'an option'],
    ['cd sub && cd /etc && npm run lint', 'a second cd'],
    ['cd sub && rm -rf deeper', 'a command no rule allows'],
    ['cd sub && bash run.sh', 'a script in the folder, not the workspace root'],
  ])('%s (%s) is still asked', async (command) => {
    const v = await decideBash(ws, { command, rules: lint, expected: 'ask' });
    expect(v.behavior).not.toBe('allow');
  });

  it('paths after the cd are judged from the folder: a read that climbs out of the workspace from there is asked', async () => {
    const rules = { allow: ['Bash(cat:*)'] };
    expect((await decideBash(ws, { command: 'cd sub && cat notes.txt', rules, expected: 'allow' })).behavior).toBe('allow');
    expect((await decideBash(ws, { command: 'cd sub && cat ../../outside/secret.md', rules, expected: 'ask' })).behavior).toBe('ask');
    expect((await decideBash(ws, { command: 'cd sub && cat link/secret.md', rules, expected: 'ask' })).behavior).toBe('ask');
    // A Read deny rule anchored at the workspace still holds when the file is reached from the folder.
    const denied = await decideBash(ws, { command: 'cd sub && cat notes.txt', rules: { allow: ['Bash(cat:*)'], deny: ['Read(./sub/notes.txt)'] }, expected: 'deny' });
    expect(denied.behavior).toBe('deny');
    const written = await decideBash(ws, { command: 'cd sub && npm run lint > ../../outside/x', rules: lint, expected: 'ask' });
    expect(written.behavior).toBe('ask');
  });

  it('CDPATH in the environment cannot send `cd sub` elsewhere: the command runs in the workspace folder (real bash)', async () => {
    // With CDPATH=<home>/outside and a folder `sub` there too, bash's `cd sub` would go outside.
    await fs.mkdir(path.join(home, 'outside', 'sub'), { recursive: true });
    const allowed = await decideBash(ws, { command: 'cd sub && pwd', rules: {}, expected: 'allow' });
    expect(allowed.behavior).toBe('allow');
    const bash = createBashTool({ env: { ...process.env, CDPATH: path.join(home, 'outside') } });
    const ran = await bash.call({ command: 'cd sub && pwd' }, { cwd: ws, signal: new AbortController().signal });
    expect(ran.content.trim()).toBe(path.join(ws, 'sub'));
  });
});
