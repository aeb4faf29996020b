import { existsSync } from 'node:fs';
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reviewDiffText, reviewScope } from '../../../src/review/review-diff.js';
import { git } from '../../helpers/test-git.js';


describe('reviewScope: what /review takes as its argument', () => {
  it.each(['main', 'HEAD~3..HEAD', 'main...feature', 'v1.2.0', 'HEAD^', 'origin/main..', 'abc123'])('%s is a revision or range', (arg) => {
    expect(reviewScope(arg)).toEqual({ ok: true, range: arg });
  });
  it.each(['--output=/tmp/x', '-p', 'main..--output=x', 'a b', 'a..b..c', '..', 'main;rm -rf ~', '$(id)'])('%s is refused, never given to git', (arg) => {
    const scope = reviewScope(arg);
    expect(scope.ok).toBe(false);
    expect(!scope.ok && scope.message).toContain('is not a branch, commit or range');
  });
  it('no argument is the working tree', () => {
    expect(reviewScope('  ')).toEqual({ ok: true });
  });
});

describe('reviewDiffText (real git)', () => {
  it("shows the working tree's diff and untracked files, and runs no external diff driver or textconv the repository names", async () => {
    const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cairn-review-')));
    const mark = path.join(dir, 'PWNED');
    await writeFile(path.join(dir, 'evil.sh'), `#!/bin/sh\necho "$*" >> '${mark}'\ncat\n`, { mode: 0o755 });
    await writeFile(path.join(dir, 'a.txt'), 'one\n');
    git(dir, 'init', '-q');
    git(dir, 'add', 'a.txt');
    git(dir, 'commit', '-q', '-m', 'one');
    git(dir, 'config', 'diff.external', path.join(dir, 'evil.sh'));
    git(dir, 'config', 'diff.evil.textconv', path.join(dir, 'evil.sh'));
    await writeFile(path.join(dir, '.gitattributes'), '*.txt diff=evil\n');
    await writeFile(path.join(dir, 'a.txt'), 'one\ntwo\n');
    await writeFile(path.join(dir, 'new.txt'), 'fresh\n');
    const text = await reviewDiffText(dir, '');
    expect(text).toContain('git diff HEAD (staged and unstaged changes)');
    expect(text).toMatch(/<diff>\n[\s\S]*\n\+two\n<\/diff>/);
    expect(text).toContain('Untracked files, not in the diff (read them whole): ');
    expect(text).toContain('new.txt');
    expect(existsSync(mark)).toBe(false);
    // A range that does not exist is said, not thrown.
    expect(await reviewDiffText(dir, 'no-such-branch..HEAD')).toMatch(/^\(cairn could not read the diff: git diff: .*no-such-branch/);
    expect(await reviewDiffText(dir, '--output=x')).toContain('is not a branch, commit or range');
  });
});
