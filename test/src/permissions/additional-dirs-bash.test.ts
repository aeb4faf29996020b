// Read-only bash in permissions.additionalDirectories needs no approval, as in the workspace; nothing else widens:
// writes there follow the rules for edits, and a symlink out of the folder reaches no further than before.
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/events.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionRuleSet } from '../../../src/permissions/types.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

let root: string;
let ws: string;
let shared: string;
let secret: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-extra-dirs-')));
  ws = join(root, 'project');
  shared = join(root, 'shared-lib');
  secret = join(root, 'secret');
  await mkdir(ws, { recursive: true });
  await mkdir(join(shared, 'src'), { recursive: true });
  await mkdir(secret, { recursive: true });
  await writeFile(join(shared, 'x.ts'), 'export const x = 1;\n');
  await writeFile(join(shared, '.env'), 'TOKEN=1\n');
  await writeFile(join(secret, 'key'), 'k\n');
  await writeFile(join(ws, 'a.txt'), 'a\n');
  // A link inside the added folder to a place that is not added.
  await symlink(secret, join(shared, 'escape'));
  await symlink(join(secret, 'key'), join(shared, 'key-link'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function decide(command: string, opts: { mode?: PermissionMode; rules?: Partial<PermissionRuleSet>; extra?: string[] } = {}) {
  const checker = createPermissionChecker({
    workspace: ws,
    mode: opts.mode ?? 'default',
    rules: { allow: [], ask: [], deny: [], ...opts.rules },
    cairnHome: join(root, 'cairn-home'),
    homeDir: root,
    additionalDirectories: opts.extra ?? [shared],
  });
  return checker.check(fakeBashTool, { command });
}

describe('read-only bash in an additional directory', () => {
  it.each([
    'cat ../shared-lib/x.ts',
    `cat ${join('..', 'shared-lib', 'x.ts')} a.txt`,
    'ls ../shared-lib/src',
    'grep -rn export ../shared-lib',
    'head -n 1 ../shared-lib/x.ts | wc -l',
    'wc -l < ../shared-lib/x.ts',
  ])('%s runs without asking', async (command) => {
    expect((await decide(command)).behavior).toBe('allow');
  });

  it('an absolute path into the folder too', async () => {
    expect((await decide(`cat ${join(shared, 'x.ts')}`)).behavior).toBe('allow');
  });

  it('without the folder added, the same read still asks', async () => {
    expect((await decide('cat ../shared-lib/x.ts', { extra: [] })).behavior).toBe('ask');
  });

  it('plan mode runs the read there, as read_file would', async () => {
    expect((await decide('cat ../shared-lib/x.ts', { mode: 'plan' })).behavior).toBe('allow');
  });
});

describe('what an additional directory does not widen', () => {
  it('a sibling folder is still outside', async () => {
    expect((await decide('cat ../secret/key')).behavior).toBe('ask');
  });

  it('a folder whose name starts like the added one is not inside it', async () => {
    await mkdir(join(root, 'shared-lib-evil'), { recursive: true });
    await writeFile(join(root, 'shared-lib-evil', 'y'), 'y');
    expect((await decide('cat ../shared-lib-evil/y')).behavior).toBe('ask');
  });

  it('../ out of the added folder is outside', async () => {
    expect((await decide('cat ../shared-lib/../secret/key')).behavior).toBe('ask');
  });

  it('a symlink in the added folder pointing elsewhere does not carry the read with it', async () => {
    expect((await decide('cat ../shared-lib/escape/key')).behavior).toBe('ask');
    expect((await decide('cat ../shared-lib/key-link')).behavior).toBe('ask');
    expect((await decide('ls ../shared-lib/escape')).behavior).toBe('ask');
  });

  it('a Read deny rule still denies there', async () => {
    expect((await decide('cat ../shared-lib/.env', { rules: { deny: ['Read(**/.env)'] } })).behavior).toBe('deny');
  });

  it('a write there follows the rules for edits: asked by default, never read-only', async () => {
    expect((await decide('echo hi > ../shared-lib/x.ts')).behavior).toBe('ask');
    expect((await decide('cat ../shared-lib/x.ts > ../shared-lib/y.ts')).behavior).toBe('ask');
    expect((await decide('touch ../shared-lib/new.ts')).behavior).toBe('ask');
    expect((await decide('rm ../shared-lib/x.ts')).behavior).toBe('ask');
    expect((await decide('cp ../shared-lib/x.ts ../shared-lib/z.ts')).behavior).toBe('ask');
  });

  it('an Edit deny rule on the folder denies a redirect into it', async () => {
    expect((await decide('echo hi > ../shared-lib/x.ts', { rules: { deny: [`Edit(/${join(shared, '**')})`] } })).behavior).toBe('deny');
  });

  it('a read there does not make a write elsewhere allowed in the same command', async () => {
    expect((await decide('cat ../shared-lib/x.ts > ../secret/out')).behavior).toBe('ask');
    expect((await decide('cat ../shared-lib/x.ts | tee ../secret/out')).behavior).toBe('ask');
  });
});
