import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestedProtectedPlaces } from '../../../src/sandbox/nested-protected.js';

// Which protected places below a writable root the sandbox holds read-only: real folders on disk.

let root: string;
beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-nested-')));
  const files = ['.envrc', '.git/config', 'a/.git/config', 'a/b/.vscode/tasks.json', 'a/b/c/.envrc', 'a/b/c/d/.envrc', 'node_modules/x/.npmrc', 'p/.GitAttributes', 'q/.git'];
  for (const f of files) {
    await fs.mkdir(path.dirname(path.join(root, f)), { recursive: true });
    await fs.writeFile(path.join(root, f), 'x');
  }
  await fs.mkdir(path.join(root, 'a', '.git', 'hooks'));
  await fs.symlink(path.join(root, 'a'), path.join(root, 'link'));
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

describe('nestedProtectedPlaces', () => {
  it('finds protected names in subfolders down to the depth limit (any case), not at the root, not in node_modules, not through links', () => {
    const found = nestedProtectedPlaces(root);
    const rel = found.readOnly.map((p) => path.relative(root, p)).sort();
    expect(rel).toEqual(
      ['a/.git/config', 'a/.git/hooks', 'a/.git/info', 'a/.git/modules', 'a/.git/commondir', 'a/b/.vscode', 'a/b/c/.envrc', 'p/.GitAttributes', 'q/.git'].sort(),
    );
    expect(found.gitDirs).toEqual([path.join(root, 'a', '.git')]);
  });

  it('stops at the folder budget instead of walking a huge tree', () => {
    expect(nestedProtectedPlaces(root, { depth: 3, folders: 1 }).readOnly).toEqual([]);
  });
});
