import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionRuleSet } from '../../../src/permissions/types.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

// A path the checker cannot resolve (realpath fails with EACCES, as /proc/1/root does even for root
// in a container) must give a verdict, never throw into the loop; and since where it leads is
// unknown, it asks, or denies while deny rules for the tool are in force.
let root: string;
let workspace: string;
let home: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-unres-')));
  workspace = join(root, 'ws');
  home = join(root, 'home');
  for (const dir of [workspace, home]) await mkdir(dir, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const checker = (rules: Partial<PermissionRuleSet> = {}) =>
  createPermissionChecker({
    workspace,
    mode: 'default',
    rules: { allow: rules.allow ?? [], ask: rules.ask ?? [], deny: rules.deny ?? [] },
    cairnHome: join(home, '.cairn'),
    homeDir: home,
  });

// EACCES whatever the uid: a directory with no search permission does not stop root, /proc/1/root does.
const UNRESOLVABLE = '/proc/1/root/etc/passwd';

describe('a path that cannot be resolved', () => {
  it('read_file and write_file ask instead of throwing', async () => {
    await expect(checker().check(createReadFileTool(), { path: UNRESOLVABLE })).resolves.toMatchObject({ behavior: 'ask' });
    await expect(checker().check(createWriteFileTool(), { path: UNRESOLVABLE, content: 'x' })).resolves.toMatchObject({ behavior: 'ask' });
  });

  it('read_file is denied while Read deny rules are in force (the deny may be where it leads)', async () => {
    const verdict = await checker({ deny: ['Read(/etc/passwd)'] }).check(createReadFileTool(), { path: UNRESOLVABLE });
    expect(verdict.behavior).toBe('deny');
  });

  it('bash reading or writing it asks, or is denied under deny rules, and never throws', async () => {
    const allow = ['Bash(cat:*)', 'Bash(echo:*)', 'Bash(cp:*)', 'Bash(ls:*)'];
    for (const command of [`cat ${UNRESOLVABLE}`, `echo x > ${UNRESOLVABLE}`, `ls /proc/1/root/`]) {
      await expect(checker({ allow: ['Bash(cat:*)', 'Bash(echo:*)', 'Bash(cp:*)', 'Bash(ls:*)'] }).check(fakeBashTool, { command }), command).resolves.toMatchObject({ behavior: 'ask' });
    }
    for (const command of [`cat ${UNRESOLVABLE}`, `echo x > ${UNRESOLVABLE}`]) {
      const denied = await checker({ allow, deny: ['Read(/etc/**)', 'Edit(/etc/**)'] }).check(fakeBashTool, { command });
      expect(denied.behavior, `${command}: ${denied.reason}`).toBe('deny');
    }
  });
});
