import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideBash } from '../../helpers/permission-tools.js';

// A prefix rule for a program that reads files vouches for the program, not for every file on the
// machine: `Bash(cat:*)` printed ~/.ssh/id_test without a question. Claude Code asks for paths
// outside its working directories; so does cairn, whatever the rule.

let home: string;
let ws: string;
beforeAll(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-reach-')));
  ws = path.join(home, 'ws');
  await fs.mkdir(path.join(home, '.ssh'), { recursive: true });
  await fs.mkdir(ws);
  await fs.writeFile(path.join(home, '.ssh', 'id_test'), 'key\n');
  await fs.writeFile(path.join(ws, 'notes.txt'), 'n\n');
  await fs.symlink(path.join(home, '.ssh'), path.join(ws, 'keys'));
});
afterAll(() => fs.rm(home, { recursive: true, force: true }));

describe('prefix rules do not reach outside the workspace', () => {
  it.each([
    ['cat ~/.ssh/id_test', 'Bash(cat:*)'],
    ['cat "$HOME"/.ssh/id_test', 'Bash(cat:*)'],
    ['cat /etc/passwd', 'Bash(cat:*)'],
    ['cat keys/id_test', 'Bash(cat:*)'],
    ['cat ../.ssh/id_test', 'Bash(cat:*)'],
    ['cp ~/.ssh/id_test stolen', 'Bash(cp:*)'],
    ['sed -n p /etc/passwd', 'Bash(sed:*)'],
    ['head --lines=5 /etc/shadow', 'Bash(head:*)'],
    ['node --require=/etc/evil.js x.js', 'Bash(node:*)'],
  ])('%s under %s is asked', async (command, rule) => {
    const v = await decideBash(ws, { command, rules: { allow: [rule] }, expected: 'ask' });
    expect(v.behavior).toBe('ask');
  });

  it.each([
    ['cat notes.txt', 'Bash(cat:*)'],
    ['cp notes.txt copy.txt', 'Bash(cp:*)'],
    ['sed -n p notes.txt > /dev/null', 'Bash(sed:*)'],
    ['npm test -- --watch=false', 'Bash(npm test:*)'],
  ])('%s under %s is still allowed', async (command, rule) => {
    const v = await decideBash(ws, { command, rules: { allow: [rule] }, expected: 'allow' });
    expect(v.behavior).toBe('allow');
  });
});

describe('program text is not a path', () => {
  it.each([
    ["awk '{print $1}' notes.txt", 'Bash(awk:*)'],
    ["grep -n 'foo$' notes.txt", 'Bash(grep:*)'],
    ["sed -n 's/a/${b}/p' notes.txt", 'Bash(sed:*)'],
  ])('%s under %s is allowed: a literal argument lands in the workspace', async (command, rule) => {
    const v = await decideBash(ws, { command, rules: { allow: [rule] }, expected: 'allow' });
    expect(v.behavior).toBe('allow');
  });
});
