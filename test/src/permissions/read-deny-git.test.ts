import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/events.js';
import { decideBash } from '../../helpers/permission-tools.js';

// Read deny rules hold against git, which prints files from its object store, not from the paths
// the rule names: `git show HEAD:.env` read a denied file in every mode. A real repository whose
// history holds the denied file.

let home: string;
let ws: string;
beforeAll(async () => {
  home = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-deny-git-')));
  ws = path.join(home, 'ws');
  await fs.mkdir(path.join(ws, 'src'), { recursive: true });
  await fs.writeFile(path.join(ws, '.env'), 'API_KEY=sk-live\n');
  await fs.writeFile(path.join(ws, 'src', 'a.ts'), 'export {};\n');
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: ws });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'init');
});
afterAll(() => fs.rm(home, { recursive: true, force: true }));

const deny = { deny: ['Read(./.env)'] };
const modes: PermissionMode[] = ['default', 'plan', 'bypassPermissions'];

describe('Read deny rules against git', () => {
  for (const mode of modes) {
    it.each(['git show HEAD:.env', 'git show HEAD:./.env', 'git cat-file -p HEAD:.env', 'git log -p', 'git grep API_KEY', 'git diff HEAD~0', 'git show HEAD', 'git log -p -- .env', 'git grep API -- .env'])(
      `${mode}: %s is denied`,
      async (command) => {
        const v = await decideBash(ws, { command, rules: deny, mode, expected: 'deny' });
        expect(v.behavior).toBe('deny');
        expect(v.reason).toMatch(/Read\(\.\/\.env\)/);
      },
    );
  }

  it.each(['git status', 'git log --oneline', 'git diff -- src', 'git show HEAD:src/a.ts', 'git grep export -- src'])('%s still runs unasked', async (command) => {
    const v = await decideBash(ws, { command, rules: deny, expected: 'allow' });
    expect(v.behavior).toBe('allow');
  });

  it('without a Read deny rule, git diff and git show are read-only as before', async () => {
    for (const command of ['git diff', 'git show HEAD', 'git log -p']) {
      expect((await decideBash(ws, { command, expected: 'allow' })).behavior).toBe('allow');
    }
  });
});
