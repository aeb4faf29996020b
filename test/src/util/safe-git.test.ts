import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { safeGit } from '../../../src/util/safe-git.js';
import { hostileRepo, pwnedBy } from '../../helpers/hostile-repos.js';

const originalPath = process.env['PATH'];
afterEach(() => {
  process.env['PATH'] = originalPath;
});

describe('safeGit: git without the repository programs', () => {
  it('diff and log -p show the change, without diff.external, a diff driver or textconv running', async () => {
    const repo = await hostileRepo('pager-diff-textconv');
    const diff = await safeGit('diff', [], { cwd: repo.dir });
    expect(diff).toContain('-beta\n+beta, changed\n');
    const log = await safeGit('log', ['-p', '-1', '--format=%s'], { cwd: repo.dir });
    expect(log).toMatch(/^init\n/);
    expect(log).toContain('+alpha\n');
    expect(await pwnedBy(repo)).toBeUndefined();
  });

  it('the same commands without safeGit run them (the traps are armed)', async () => {
    const repo = await hostileRepo('pager-diff-textconv');
    execFileSync('git', ['diff'], { cwd: repo.dir, encoding: 'utf8' });
    execFileSync('git', ['log', '-p', '-1'], { cwd: repo.dir, encoding: 'utf8' });
    expect(await pwnedBy(repo)).toMatch(/^diff-driver b\.txt[\s\S]*\ntextconv /);
  });

  it('a filter driver the user defined (global config) still runs; the repository one does not', async () => {
    const repo = await hostileRepo('filter');
    const global = path.join(path.dirname(repo.dir), 'global-config');
    const mark = path.join(path.dirname(repo.dir), 'USER-FILTER');
    await fs.writeFile(global, `[filter "mine"]\n\tclean = "echo ran >> '${mark}'; cat"\n`);
    await fs.appendFile(path.join(repo.dir, '.git', 'info', 'attributes'), 'a.txt filter=mine\n');
    const previous = process.env['GIT_CONFIG_GLOBAL'];
    process.env['GIT_CONFIG_GLOBAL'] = global;
    try {
      expect(await safeGit('status', ['--short'], { cwd: repo.dir })).toBe(' M b.txt\n?? new.txt\n');
    } finally {
      if (previous === undefined) delete process.env['GIT_CONFIG_GLOBAL'];
      else process.env['GIT_CONFIG_GLOBAL'] = previous;
    }
    expect(await fs.readFile(mark, 'utf8')).toBe('ran\n');
    expect(await pwnedBy(repo)).toBeUndefined();
  });

  it('a repository filter whose name cannot be switched off: git is not run, and the error names it', async () => {
    const repo = await hostileRepo('filter');
    execFileSync('git', ['config', '--file', path.join(repo.dir, '.git', 'config'), 'filter.a=b.clean', path.join(path.dirname(repo.dir), 'bin', 'clean')]);
    await fs.writeFile(path.join(repo.dir, '.gitattributes'), '* filter=a=b\n');
    await expect(safeGit('status', ['--short'], { cwd: repo.dir })).rejects.toThrow(/filter named "a=b"/);
    expect(await pwnedBy(repo)).toBeUndefined();
  });

  it('a `git` inside the repository is not run through a relative PATH entry (node_modules/.bin, ., empty)', async () => {
    const repo = await hostileRepo('hooks');
    for (const dir of ['node_modules/.bin', '.']) {
      await fs.mkdir(path.join(repo.dir, dir), { recursive: true });
      await fs.writeFile(path.join(repo.dir, dir, 'git'), `#!/bin/sh\necho "planted git $*" >> '${repo.pwned}'\n`, { mode: 0o755 });
    }
    process.env['PATH'] = ['node_modules/.bin', '.', '', originalPath].join(path.delimiter);
    expect((await safeGit('rev-parse', ['--abbrev-ref', 'HEAD'], { cwd: repo.dir })).trim()).toBe('main');
    expect(await pwnedBy(repo)).toBeUndefined();
  });

  it('a caller\'s extra settings cannot switch a program back on', async () => {
    const repo = await hostileRepo('fsmonitor');
    for (const setting of ['core.fsmonitor=/bin/true', 'core.hooksPath=/tmp', 'filter.x.clean=cat', 'diff.external=cat', 'Core.Pager=cat']) {
      await expect(safeGit('status', [], { cwd: repo.dir, config: [setting] })).rejects.toThrow(`refusing the setting ${setting}`);
    }
    expect(await safeGit('status', ['--short'], { cwd: repo.dir, config: ['core.quotePath=false'] })).toBe(' M b.txt\n?? new.txt\n');
    expect(await pwnedBy(repo)).toBeUndefined();
  });

  it('outside a repository: rejects with git\'s message', async () => {
    const repo = await hostileRepo('fsmonitor');
    const outside = path.dirname(repo.dir);
    await expect(safeGit('rev-parse', ['HEAD'], { cwd: path.join(outside, 'bin') })).rejects.toThrow(/git rev-parse: fatal: not a git repository/);
  });
});
