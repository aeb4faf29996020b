import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HostileKind, hostileRepo, pwnedBy } from '../helpers/hostile-repos.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// Issue 29: cairn's own git calls (the system prompt's git section) in a folder nobody trusted yet.
describe('cairn -p in a repository whose git config names programs (built binary, real git)', () => {
  it.each<HostileKind>(['fsmonitor', 'hooks', 'filter', 'gitdir-file', 'submodule'])('%s: the run completes and none of them runs', async (kind) => {
    const repo = await hostileRepo(kind);
    const { home } = await tempWorkspace();
    const run = await runCairn(['-p', 'read a.txt'], { cwd: repo.dir, home });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/a\.txt/);
    expect(await pwnedBy(repo)).toBeUndefined();
  });

  it("an fsmonitor hook in the user's global git config does not run either", async () => {
    const { dir, home } = await tempWorkspace({ 'a.txt': 'alpha\n' });
    const mark = path.join(home, 'FSMONITOR');
    const hook = path.join(home, 'fsmonitor.sh');
    await fs.writeFile(hook, `#!/bin/sh\necho "$*" >> '${mark}'\n`, { mode: 0o755 });
    await fs.writeFile(path.join(home, 'gitconfig'), `[core]\n\tfsmonitor = ${hook}\n`);
    execFileSync('git', ['init', '-q', dir]);
    const run = await runCairn(['-p', 'read a.txt'], { cwd: dir, home, env: { GIT_CONFIG_GLOBAL: path.join(home, 'gitconfig') } });
    expect(run.code).toBe(0);
    await expect(fs.readFile(mark, 'utf8')).rejects.toThrow(/ENOENT/);
  });
});
