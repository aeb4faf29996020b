import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionWorktree, removeSessionWorktree } from '../../../src/worktrees/session-worktree.js';
import { hostileRepo, pwnedBy, type HostileKind } from '../../helpers/hostile-repos.js';
import { git } from '../../helpers/test-git.js';

let root: string;
let repo: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-worktree-')));
  repo = path.join(root, 'repo');
  await fs.mkdir(repo);
  git(repo, 'init', '-q', '-b', 'main');
  await fs.writeFile(path.join(repo, 'a.txt'), 'a\n');
  await fs.writeFile(path.join(repo, '.gitignore'), '.env\nsecret.key\nnode_modules/\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'init');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('cairn -w: the session worktree', () => {
  it('is made under .cairn/worktrees on a new branch, with the ignored files .worktreeinclude lists copied in', async () => {
    await fs.writeFile(path.join(repo, '.worktreeinclude'), '.env\n');
    await fs.writeFile(path.join(repo, '.env'), 'TOKEN=1\n');
    await fs.writeFile(path.join(repo, 'secret.key'), 'not listed\n');
    const wt = await createSessionWorktree(repo, 'feat');
    expect(wt.dir).toBe(path.join(repo, '.cairn', 'worktrees', 'feat'));
    expect(git(wt.dir, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('feat');
    expect(await fs.readFile(path.join(wt.dir, 'a.txt'), 'utf8')).toBe('a\n');
    expect(wt.copied).toEqual(['.env']);
    expect(await fs.readFile(path.join(wt.dir, '.env'), 'utf8')).toBe('TOKEN=1\n');
    await expect(fs.access(path.join(wt.dir, 'secret.key'))).rejects.toThrow();
  });

  it('refuses a name, folder or branch that exists, a bad name, and a folder outside git, saying why', async () => {
    await createSessionWorktree(repo, 'feat');
    await expect(createSessionWorktree(repo, 'feat')).rejects.toThrow(/\.cairn\/worktrees\/feat exists already/);
    git(repo, 'branch', 'taken');
    await expect(createSessionWorktree(repo, 'taken')).rejects.toThrow(/a branch named taken exists already/);
    await expect(createSessionWorktree(repo, '../escape')).rejects.toThrow(/is not a usable name/);
    await expect(createSessionWorktree(repo, '-x')).rejects.toThrow(/is not a usable name/);
    const plain = path.join(root, 'plain');
    await fs.mkdir(plain);
    await expect(createSessionWorktree(plain, 'feat')).rejects.toThrow(/needs a git repository/);
  });

  it('removal keeps uncommitted work and the branch; a clean worktree goes', async () => {
    const wt = await createSessionWorktree(repo, 'feat');
    await fs.writeFile(path.join(wt.dir, 'work.txt'), 'unsaved\n');
    await expect(removeSessionWorktree(wt)).rejects.toThrow(/uncommitted work, so it was kept:\n\?\? work\.txt/);
    expect(await fs.readFile(path.join(wt.dir, 'work.txt'), 'utf8')).toBe('unsaved\n');
    git(wt.dir, 'add', 'work.txt');
    git(wt.dir, 'commit', '-q', '-m', 'work');
    expect(await removeSessionWorktree(wt)).toMatch(/Removed the worktree .*; the branch feat is kept\./);
    await expect(fs.access(wt.dir)).rejects.toThrow();
    expect(git(repo, 'show', 'feat:work.txt')).toBe('unsaved\n');
  });
});

describe('a hostile repository: making and removing the worktree runs none of its programs', () => {
  // hooks: post-checkout and reference-transaction; filter: the smudge that checkout runs.
  const kinds: HostileKind[] = ['hooks', 'filter', 'fsmonitor'];
  it.each(kinds)('%s', async (kind) => {
    const hostile = await hostileRepo(kind);
    try {
      git(hostile.dir, 'stash', '-u', '-q'); // leave the tree clean, so removal is allowed
      await fs.rm(hostile.pwned, { force: true });
      const wt = await createSessionWorktree(hostile.dir, 'feat');
      expect(await fs.readFile(path.join(wt.dir, 'b.txt'), 'utf8')).toBe('beta\n');
      await removeSessionWorktree(wt);
      expect(await pwnedBy(hostile)).toBeUndefined();
    } finally {
      await fs.rm(path.dirname(hostile.dir), { recursive: true, force: true });
    }
  });
});
