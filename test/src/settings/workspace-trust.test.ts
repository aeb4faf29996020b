import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeJsonFile, isWorkspaceTrusted, trustStoreFile, trustWorkspace, workspaceTrust } from '../../../src/settings/workspace-trust.js';

let root: string;
let workspace: string;
let cairnHome: string;
let claudeHome: string;
let homeDir: string;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-trust-')));
  homeDir = join(root, 'me');
  workspace = join(homeDir, 'projects', 'cloned');
  cairnHome = join(homeDir, '.cairn');
  claudeHome = join(homeDir, '.claude');
  await mkdir(workspace, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const at = () => ({ workspace, cairnHome, claudeHome, homeDir });

describe('workspace trust', () => {
  it('a folder nobody has trusted is not trusted, and no file is written by asking', async () => {
    expect(await isWorkspaceTrusted(at())).toBe(false);
    await expect(readFile(trustStoreFile(cairnHome))).rejects.toThrow(/ENOENT/);
  });

  it('trusting a folder is remembered for the next run, and covers its subfolders but not its siblings', async () => {
    const result = await trustWorkspace({ workspace, cairnHome, homeDir, now: () => new Date('2026-12-01T10:00:00Z') });
    expect(result).toEqual({ remembered: true, folder: workspace });
    expect(await isWorkspaceTrusted(at())).toBe(true);
    const sub = join(workspace, 'packages', 'a');
    await mkdir(sub, { recursive: true });
    expect(await isWorkspaceTrusted({ ...at(), workspace: sub })).toBe(true);
    const sibling = join(homeDir, 'projects', 'other');
    await mkdir(sibling);
    expect(await isWorkspaceTrusted({ ...at(), workspace: sibling })).toBe(false);
    const stored = JSON.parse(await readFile(trustStoreFile(cairnHome), 'utf8')) as unknown;
    expect(stored).toEqual({ folders: { [workspace]: { trustedAt: '2026-12-01T10:00:00.000Z' } } });
  });

  it('a folder reached through a symlink is the folder it points to', async () => {
    const link = join(root, 'link');
    await symlink(workspace, link);
    await trustWorkspace({ workspace: link, cairnHome, homeDir });
    expect(await isWorkspaceTrusted(at())).toBe(true);
    expect((await workspaceTrust({ ...at(), workspace: link })).by).toEqual({ folder: workspace, file: trustStoreFile(cairnHome) });
  });

  it("Claude Code's own answer in ~/.claude.json counts, read only; a declined or missing answer does not", async () => {
    const file = claudeJsonFile(claudeHome);
    expect(file).toBe(join(homeDir, '.claude.json'));
    await writeFile(file, JSON.stringify({ projects: { [workspace]: { hasTrustDialogAccepted: false, allowedTools: [] } } }));
    expect(await isWorkspaceTrusted(at())).toBe(false);
    const accepted = JSON.stringify({ numStartups: 3, projects: { [workspace]: { hasTrustDialogAccepted: true } } });
    await writeFile(file, accepted);
    expect(await workspaceTrust(at())).toEqual({ trusted: true, by: { folder: workspace, file }, problems: [] });
    expect(await readFile(file, 'utf8')).toBe(accepted);
    await expect(readFile(trustStoreFile(cairnHome))).rejects.toThrow(/ENOENT/);
  });

  it('with CLAUDE_CONFIG_DIR, .claude.json is inside that folder', async () => {
    const configDir = join(root, 'cc-config');
    await mkdir(configDir);
    expect(claudeJsonFile(configDir)).toBe(join(configDir, '.claude.json'));
    await writeFile(join(configDir, '.claude.json'), JSON.stringify({ projects: { [workspace]: { hasTrustDialogAccepted: true } } }));
    expect(await isWorkspaceTrusted({ ...at(), claudeHome: configDir })).toBe(true);
  });

  it('the home folder and the root are trusted for this run only; an entry for them (hand-written) covers nothing', async () => {
    const result = await trustWorkspace({ workspace: homeDir, cairnHome, homeDir });
    expect(result.remembered).toBe(false);
    expect(result.reason).toMatch(/home folder/);
    await mkdir(cairnHome, { recursive: true });
    await writeFile(trustStoreFile(cairnHome), JSON.stringify({ folders: { [homeDir]: {}, '/': {} } }));
    await writeFile(claudeJsonFile(claudeHome), JSON.stringify({ projects: { [homeDir]: { hasTrustDialogAccepted: true } } }));
    expect(await isWorkspaceTrusted(at())).toBe(false);
  });

  it('a broken trust file counts as not trusted and is reported naming the file; it is never overwritten', async () => {
    await mkdir(cairnHome, { recursive: true });
    await writeFile(trustStoreFile(cairnHome), '{"folders": ');
    await writeFile(claudeJsonFile(claudeHome), '[1]');
    const problems: string[] = [];
    expect(await isWorkspaceTrusted({ ...at(), onProblem: (m) => problems.push(m) })).toBe(false);
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^${trustStoreFile(cairnHome)}: invalid JSON`)),
      `${claudeJsonFile(claudeHome)}: "projects" is not an object; its trust answers are not used`,
    ]);
    await expect(isWorkspaceTrusted(at())).rejects.toThrow(trustStoreFile(cairnHome));
    await expect(trustWorkspace({ workspace, cairnHome, homeDir })).rejects.toThrow(/cannot remember the trusted folder: .*invalid JSON/);
    expect(await readFile(trustStoreFile(cairnHome), 'utf8')).toBe('{"folders": ');
  });

  it('two folders trusted at the same moment are both remembered', async () => {
    const second = join(homeDir, 'projects', 'second');
    await mkdir(second);
    await Promise.all([trustWorkspace({ workspace, cairnHome, homeDir }), trustWorkspace({ workspace: second, cairnHome, homeDir })]);
    expect(await isWorkspaceTrusted(at())).toBe(true);
    expect(await isWorkspaceTrusted({ ...at(), workspace: second })).toBe(true);
  });
});
