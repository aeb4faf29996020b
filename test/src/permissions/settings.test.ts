import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { addAllowRulesToFile, loadSettings, SettingsError } from '../../../src/permissions/rules/settings.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

let root: string;
let workspace: string;
let cairnHome: string;
let claudeHome: string;
let userFile: string;
let projectFile: string;
let localFile: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-settings-')));
  workspace = join(root, 'ws');
  cairnHome = join(root, 'home', '.cairn');
  claudeHome = join(root, 'home', '.claude');
  await mkdir(join(workspace, '.cairn'), { recursive: true });
  await mkdir(cairnHome, { recursive: true });
  userFile = join(cairnHome, 'settings.json');
  projectFile = join(workspace, '.cairn', 'settings.json');
  localFile = join(workspace, '.cairn', 'settings.local.json');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const write = (file: string, data: unknown) => writeFile(file, typeof data === 'string' ? data : JSON.stringify(data));

describe('loadSettings', () => {
  it('returns no rules when there are no settings files', async () => {
    expect(await loadSettings({ workspace, cairnHome, claudeHome, trusted: true })).toEqual({ rules: { allow: [], ask: [], deny: [] }, additionalDirectories: [], sources: [], origins: [], warnings: [], liftedBuiltinDeny: [], bypassDisabled: false, withheld: [] });
  });

  it('merges the lists of user, project and local settings', async () => {
    await write(userFile, { permissions: { allow: ['Read', 'Bash(git status:*)'], deny: ['Bash(git push:*)'], defaultMode: 'plan' } });
    await write(projectFile, { permissions: { allow: ['Bash(npm test:*)', 'Read'], ask: ['Write(./package.json)'], defaultMode: 'acceptEdits' }, model: 'x' });
    await write(localFile, { permissions: { allow: ['Bash(git push:*)'] } });
    const loaded = await loadSettings({ workspace, cairnHome, claudeHome, trusted: true });
    expect(loaded).toMatchObject({
      rules: {
        allow: ['Read', 'Bash(git status:*)', 'Bash(npm test:*)', 'Bash(git push:*)'],
        ask: ['Write(./package.json)'],
        deny: ['Bash(git push:*)'],
      },
      defaultMode: 'acceptEdits', // the most specific file that sets it
      sources: [userFile, projectFile, localFile],
      warnings: [],
    });
    // Each rule keeps where it was written, for messages about it.
    expect(loaded.origins).toContainEqual(expect.objectContaining({ rule: 'Read', where: `${projectFile}: permissions.allow[1]`, list: 'allow', file: projectFile }));

    // A deny in the user file wins over an allow in the local file.
    const checker = createPermissionChecker({ workspace, mode: 'default', rules: loaded.rules, cairnHome });
    const bash = fakeBashTool;
    expect((await checker.check(bash, { command: 'git push' })).behavior).toBe('deny');
    expect((await checker.check(bash, { command: 'npm test' })).behavior).toBe('allow');
  });

  it('accepts unknown keys', async () => {
    await write(projectFile, { theme: 'dark', permissions: { allow: ['Read'], additionalDirectories: ['../x'] } });
    expect((await loadSettings({ workspace, cairnHome, claudeHome, trusted: true })).rules.allow).toEqual(['Read']);
  });

  const bad: Array<[string, (files: { user: string; project: string; local: string }) => [string, unknown], RegExp]> = [
    ['invalid JSON', (f) => [f.project, '{"permissions": {'], /settings\.json: invalid JSON/],
    ['a non-string rule', (f) => [f.project, { permissions: { allow: ['Read', 'Edit', 3] } }], /\.cairn\/settings\.json: permissions\.allow\[2\]: expected string/],
    ['a list that is not an array', (f) => [f.user, { permissions: { deny: 'Bash' } }], /\.cairn\/settings\.json: permissions\.deny: expected array/],
    ['an unknown mode', (f) => [f.local, { permissions: { defaultMode: 'yolo' } }], /settings\.local\.json: permissions\.defaultMode: .*acceptEdits/],
    ['a malformed rule', (f) => [f.local, { permissions: { deny: ['Bash(git status'] } }], /settings\.local\.json: permissions\.deny\[0\]: invalid rule "Bash\(git status": missing closing/],
    ['a top-level array', (f) => [f.user, []], /settings\.json: expected a JSON object at the top level/],
    ['permissions that are not an object', (f) => [f.project, { permissions: true }], /settings\.json: permissions: expected object/],
  ];
  it.each(bad)('names the file and the field for %s', async (_name, make, message) => {
    const [file, data] = make({ user: userFile, project: projectFile, local: localFile });
    await write(file, data);
    const error = await loadSettings({ workspace, cairnHome, claudeHome, trusted: true }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(file);
  });
});

describe('saving rules to settings.local.json', () => {
  it('creates the file when there is none', async () => {
    await rm(join(workspace, '.cairn'), { recursive: true });
    await addAllowRulesToFile(localFile, ['Bash(npm test:*)']);
    expect(JSON.parse(await readFile(localFile, 'utf8'))).toEqual({ permissions: { allow: ['Bash(npm test:*)'] } });
  });

  it('merges into the existing file, keeping every other key', async () => {
    await write(localFile, {
      theme: 'dark',
      permissions: { allow: ['Read'], deny: ['Bash(rm:*)'], defaultMode: 'acceptEdits', extra: { keep: true } },
      hooks: [1, 2],
    });
    const checker = createPermissionChecker({ workspace, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome });
    await checker.saveProjectRules(['Bash(git log:*)', 'Read']);
    expect(JSON.parse(await readFile(localFile, 'utf8'))).toEqual({
      theme: 'dark',
      permissions: { allow: ['Read', 'Bash(git log:*)'], deny: ['Bash(rm:*)'], defaultMode: 'acceptEdits', extra: { keep: true } },
      hooks: [1, 2],
    });
    expect(await readdir(join(workspace, '.cairn'))).toEqual(['.gitignore', 'settings.local.json']); // no temp file left behind; the local file is git-ignored
    expect((await loadSettings({ workspace, cairnHome, claudeHome, trusted: true })).rules.allow).toEqual(['Read', 'Bash(git log:*)']);
  });

  it('keeps both of two saves made at once', async () => {
    await Promise.all([addAllowRulesToFile(localFile, ['Bash(a:*)']), addAllowRulesToFile(localFile, ['Bash(b:*)'])]);
    expect(JSON.parse(await readFile(localFile, 'utf8'))).toEqual({ permissions: { allow: ['Bash(a:*)', 'Bash(b:*)'] } });
  });

  it('refuses to overwrite a file it cannot parse', async () => {
    await write(localFile, '{ broken');
    await expect(addAllowRulesToFile(localFile, ['Read'])).rejects.toThrow(/settings\.local\.json: invalid JSON/);
    expect(await readFile(localFile, 'utf8')).toBe('{ broken');
  });
});

describe('loadSettings: files that are not what they seem', () => {
  const fifos: string[] = [];
  afterEach(() => {
    for (const f of fifos.splice(0)) releaseFifo(f);
  });

  it('a FIFO at .cairn/settings.json is named and passed over; the other files still load', { timeout: 5000 }, async () => {
    makeFifo(projectFile);
    fifos.push(projectFile);
    await write(userFile, { permissions: { deny: ['Bash(rm:*)'] } });
    await write(localFile, { permissions: { allow: ['Read'] } });
    const loaded = await loadSettings({ workspace, cairnHome, claudeHome, trusted: true });
    expect(loaded.rules).toEqual({ allow: ['Read'], ask: [], deny: ['Bash(rm:*)'] });
    expect(loaded.sources).toEqual([userFile, localFile]);
    expect(loaded.warnings).toEqual([`${projectFile}: is a FIFO (named pipe), not a file; not read; started without these settings`]);
  });

  it('a directory named settings.local.json is named too', async () => {
    await mkdir(localFile);
    const loaded = await loadSettings({ workspace, cairnHome, claudeHome, trusted: true });
    expect(loaded.warnings).toEqual([expect.stringContaining(`${localFile}: is a directory, not a file`)]);
  });

  it('a settings file saved with a UTF-8 BOM is read', async () => {
    await write(projectFile, `\ufeff${JSON.stringify({ permissions: { deny: ['Bash(curl:*)'] } })}`);
    expect((await loadSettings({ workspace, cairnHome, claudeHome, trusted: true })).rules.deny).toEqual(['Bash(curl:*)']);
  });
});

describe('lifting a built-in deny rule', () => {
  const bash = fakeBashTool;
  const checkerFor = async () => {
    const loaded = await loadSettings({ workspace, cairnHome, claudeHome, trusted: true });
    return createPermissionChecker({ workspace, mode: 'bypassPermissions', rules: loaded.rules, cairnHome, liftedBuiltinDeny: loaded.liftedBuiltinDeny });
  };

  it('only the user settings file can lift one; a repository file that tries is named in a warning', async () => {
    await write(projectFile, { permissions: { liftBuiltinDeny: ['recursive-rm', 'sudo'] } });
    await write(localFile, { permissions: { liftBuiltinDeny: ['recursive-rm'] } });
    const loaded = await loadSettings({ workspace, cairnHome, claudeHome, trusted: true });
    expect(loaded.liftedBuiltinDeny).toEqual([]);
    expect(loaded.warnings).toEqual([expect.stringContaining(projectFile), expect.stringContaining(localFile)]);
    expect((await (await checkerFor()).check(bash, { command: 'rm -r build' })).behavior).toBe('deny');

    await write(userFile, { permissions: { liftBuiltinDeny: ['recursive-rm'] } });
    const lifted = await checkerFor();
    expect((await lifted.check(bash, { command: 'rm -r build' })).behavior).toBe('allow');
    expect((await lifted.check(bash, { command: 'sudo ls' })).behavior).toBe('deny');
    // The catastrophic targets stay denied whatever is lifted.
    expect((await lifted.check(bash, { command: 'rm -rf /' })).behavior).toBe('deny');
  });

  it('an unknown id is an error naming the file and the field', async () => {
    await write(userFile, { permissions: { liftBuiltinDeny: ['everything'] } });
    await expect(loadSettings({ workspace, cairnHome, claudeHome, trusted: true })).rejects.toThrow(/settings\.json: permissions\.liftBuiltinDeny\[0\]/);
  });
});
