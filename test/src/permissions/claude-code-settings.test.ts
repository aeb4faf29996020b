// A project laid out as a real Claude Code project: settings at all three levels with rules of every
// form Claude Code documents, each decision checked against what its documentation says.
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PermissionMode } from '../../../src/events.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { loadSettings } from '../../../src/permissions/rules/settings.js';
import { defineTool, type AnyTool } from '../../../src/tools/tool.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

const pathTool = (name: string, kind: 'read' | 'edit') =>
  defineTool({
    name,
    description: `${name} (a stand-in)`,
    inputSchema: z.object({ path: z.string() }),
    kind,
    effects: () => (kind === 'read' ? ('none' as const) : ('workspace' as const)),
    paths: (input) => [input.path],
    call: async () => ({ content: '' }),
  });
const readTool = pathTool('read_file', 'read');
const editTool = pathTool('edit_file', 'edit');
const mcpTool = (name: string) =>
  defineTool({ name, description: name, inputSchema: z.object({}), kind: 'other', effects: () => 'world' as const, call: async () => ({ content: '' }) });
const agentTool = defineTool({
  name: 'agent',
  description: 'agent (a stand-in)',
  inputSchema: z.object({ type: z.string() }),
  kind: 'other',
  effects: () => 'session' as const,
  ruleSubject: (input) => input.type,
  call: async () => ({ content: '' }),
});
// A tool that cannot say what its rules match: a scoped deny must still hold.
const opaqueSkill = defineTool({ name: 'load_skill', description: 'skill', inputSchema: z.object({ name: z.string() }), kind: 'other', effects: () => 'session' as const, call: async () => ({ content: '' }) });

let root: string;
let home: string;
let ws: string;
let cairnHome: string;
let claudeHome: string;

const write = async (file: string, data: unknown): Promise<void> => {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(data, null, 2));
};

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-cc-project-')));
  home = join(root, 'home');
  ws = join(home, 'project');
  cairnHome = join(home, '.cairn');
  claudeHome = join(home, '.claude');
  await mkdir(join(ws, 'src'), { recursive: true });
  await mkdir(join(home, 'shared-lib'), { recursive: true });
  await write(join(claudeHome, 'settings.json'), {
    permissions: { deny: ['Read(~/.ssh/**)'], allow: ['Read(/notes/**)'] },
  });
  await write(join(ws, '.claude', 'settings.json'), {
    $schema: 'https://json.schemastore.org/claude-code-settings.json',
    permissions: {
      allow: ['Bash(npm run test *)', 'Bash(git status:*)', 'Read(./docs/**)', 'mcp__github__*', 'Edit(/src/**)', 'WebFetch(domain:docs.example.com)', 'WebSearch', 'Skill(deploy)', 'Task(general)'],
      deny: ['Read(/secrets/**)', 'Read(./exercises/solutions/**)', 'Bash(echo ")")', 'Agent(Explore)', 'mcp__evil', 'Edit(//etc/**)', 'Skill(drop-db)'],
      ask: ['Bash(git push *)'],
    },
    outputStyle: 'Explanatory',
  });
  await write(join(ws, '.claude', 'settings.local.json'), {
    permissions: { allow: ['Bash(ls *)'], deny: ['Read(.env)'], additionalDirectories: ['../shared-lib'] },
  });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function checkerFor(opts: { trusted: boolean; mode?: PermissionMode }) {
  const s = await loadSettings({ workspace: ws, cairnHome, claudeHome, trusted: opts.trusted });
  return createPermissionChecker({
    workspace: ws,
    mode: opts.mode ?? s.defaultMode ?? 'default',
    rules: s.rules,
    cairnHome,
    homeDir: home,
    additionalDirectories: s.additionalDirectories,
  });
}

type Row = [what: string, tool: AnyTool, input: unknown, trusted: 'allow' | 'ask' | 'deny', untrusted: 'allow' | 'ask' | 'deny'];
const bash = (command: string) => ({ command });
const at = (p: string) => ({ path: p });

// [call, decision once the folder is trusted, decision before]
const rows = (ws: string, home: string, claudeHome: string): Row[] => [
  ['Bash(npm run test *) allows', fakeBashTool, bash('npm run test -- --watch=false'), 'allow', 'ask'],
  ['legacy Bash(git status:*) allows', fakeBashTool, bash('git status --short'), 'allow', 'allow'], // read-only git needs no rule
  ['Bash(ls *) from the local file allows (and ls is read-only anyway)', fakeBashTool, bash('ls -la src'), 'allow', 'allow'],
  ['Bash(echo ")") denies that very command', fakeBashTool, bash('echo ")"'), 'deny', 'deny'],
  ['Bash(git push *) asks', fakeBashTool, bash('git push origin main'), 'ask', 'ask'],
  ['Read(/secrets/**) is anchored at the project root', readTool, at(join(ws, 'secrets', 'key.pem')), 'deny', 'deny'],
  ['Read(/secrets/**) also holds for /secrets (a deny never fails open)', readTool, at('/secrets/key.pem'), 'deny', 'deny'],
  ['Read(./exercises/solutions/**) denies', readTool, at(join(ws, 'exercises', 'solutions', 'a.md')), 'deny', 'deny'],
  ['Read(.env) denies at any depth', readTool, at(join(ws, 'api', '.env')), 'deny', 'deny'],
  ['Read(~/.ssh/**) from the user file denies', readTool, at(join(home, '.ssh', 'id_rsa')), 'deny', 'deny'],
  ['Read(/notes/**) in ~/.claude/settings.json is ~/.claude/notes', readTool, at(join(claudeHome, 'notes', 'a.md')), 'allow', 'allow'],
  ['... and not /notes', readTool, at('/notes/a.md'), 'ask', 'ask'],
  ['Edit(/src/**) allows edits under the project root', editTool, at(join(ws, 'src', 'a.ts')), 'allow', 'ask'],
  ['... and not /src at the filesystem root', editTool, at('/src/a.ts'), 'ask', 'ask'],
  ['Edit(//etc/**) is absolute', editTool, at('/etc/hosts'), 'deny', 'deny'],
  ['additionalDirectories: reads there need no approval', readTool, at(join(home, 'shared-lib', 'index.ts')), 'allow', 'ask'],
  ['... a sibling folder is still outside', readTool, at(join(home, 'other', 'x.ts')), 'ask', 'ask'],
  ['mcp__github__* allows every tool of that server', mcpTool('mcp__github__create_issue'), {}, 'allow', 'ask'],
  ['... not another server', mcpTool('mcp__gitlab__create_issue'), {}, 'ask', 'ask'],
  ['mcp__evil denies the whole server', mcpTool('mcp__evil__run'), {}, 'deny', 'deny'],
  ['Agent(Explore) denies that agent type', agentTool, { type: 'Explore' }, 'deny', 'deny'],
  ['... not another', agentTool, { type: 'general' }, 'allow', 'allow'],
  ['Skill(drop-db) on a tool that cannot name its subject: denied rather than fail open', opaqueSkill, { name: 'deploy' }, 'deny', 'deny'],
];

describe('a Claude Code project: every rule form decides as documented', () => {
  it.each(rows('/ws', '/home', '/home/.claude').map((r, i) => [r[0], i] as const))('%s', async (_what, i) => {
    const [, tool, input, trusted, untrusted] = rows(ws, home, claudeHome)[i]!;
    expect((await (await checkerFor({ trusted: true })).check(tool, input)).behavior).toBe(trusted);
    // Before trust the project's files only narrow: their allow rules and extra folders wait.
    expect((await (await checkerFor({ trusted: false })).check(tool, input)).behavior).toBe(untrusted);
  });

  it('dontAsk denies whatever is not pre-allowed, ask rules included, and never asks', async () => {
    const checker = await checkerFor({ trusted: true, mode: 'dontAsk' });
    expect((await checker.check(fakeBashTool, bash('npm run test'))).behavior).toBe('allow');
    const pushed = await checker.check(fakeBashTool, bash('git push origin main'));
    expect(pushed).toMatchObject({ behavior: 'deny', reason: expect.stringMatching(/dontAsk/) });
    expect((await checker.check(fakeBashTool, bash('curl https://example.com'))).behavior).toBe('deny');
    expect((await checker.check(editTool, at(join(ws, 'README.md')))).behavior).toBe('deny');
    expect((await checker.check(readTool, at(join(ws, 'README.md')))).behavior).toBe('allow');
  });

  it('defaultMode dontAsk in a settings file starts cairn in it', async () => {
    await write(join(ws, '.claude', 'settings.local.json'), { permissions: { defaultMode: 'dontAsk' } });
    const s = await loadSettings({ workspace: ws, cairnHome, claudeHome, trusted: false });
    expect(s.defaultMode).toBe('dontAsk');
    await write(join(ws, '.claude', 'settings.local.json'), { permissions: { defaultMode: 'manual' } });
    expect((await loadSettings({ workspace: ws, cairnHome, claudeHome, trusted: true })).defaultMode).toBe('default');
  });

  it('a cloned repository cannot start itself in bypassPermissions or acceptEdits before trust', async () => {
    for (const mode of ['bypassPermissions', 'acceptEdits']) {
      await write(join(ws, '.claude', 'settings.json'), { permissions: { defaultMode: mode, allow: ['Bash'] } });
      const s = await loadSettings({ workspace: ws, cairnHome, claudeHome, trusted: false });
      expect(s.defaultMode).toBeUndefined();
      expect(s.rules.allow).toEqual([`Read(/${claudeHome}/notes/**)`]); // the user's own file applies
      expect(s.withheld.map((w) => w.key)).toEqual(['permissions.allow', 'permissions.defaultMode', 'permissions.allow', 'permissions.additionalDirectories']);
    }
  });

  it('a wildcard in an allow rule reaches only within one MCP server; elsewhere it is reported and not used', async () => {
    await write(join(ws, '.claude', 'settings.json'), { permissions: { allow: ['mcp__*', '*', 'mcp__github__*'], deny: ['mcp__*__delete_*'] } });
    const s = await loadSettings({ workspace: ws, cairnHome, claudeHome, trusted: true });
    expect(s.rules.allow.filter((r) => r.startsWith('mcp') || r === '*')).toEqual(['mcp__github__*']);
    expect(s.warnings.filter((w) => w.includes('only after mcp__<server>__'))).toHaveLength(2);
    const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: s.rules, cairnHome, homeDir: home });
    expect((await checker.check(mcpTool('mcp__github__delete_repo'), {})).behavior).toBe('deny');
    expect((await checker.check(mcpTool('mcp__github__list'), {})).behavior).toBe('allow');
  });
});

describe('the 25 real settings files in ../shared/fixtures/claude-code/settings', () => {
  const dir = fileURLToPath(new URL('../../../../shared/fixtures/claude-code/settings', import.meta.url));

  it('each loads as Claude Code would: every rule kept, nothing stops start-up, before trust nothing is allowed', async () => {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(25);
    let rules = 0;
    for (const f of files) {
      await rm(join(ws, '.claude'), { recursive: true, force: true });
      const raw = JSON.parse(await readFile(join(dir, f), 'utf8')) as { permissions?: Record<string, string[] | undefined> };
      await write(join(ws, '.claude', f.endsWith('.local.json') ? 'settings.local.json' : 'settings.json'), raw);
      const trusted = await loadSettings({ workspace: ws, cairnHome, claudeHome: join(root, 'no-claude'), trusted: true });
      const written = ['allow', 'ask', 'deny'].flatMap((l) => raw.permissions?.[l] ?? []);
      rules += written.length;
      expect(trusted.origins.map((o) => o.rule), f).toEqual(written);
      expect(trusted.rules.allow.length, f).toBe(new Set(raw.permissions?.['allow'] ?? []).size);
      const untrusted = await loadSettings({ workspace: ws, cairnHome, claudeHome: join(root, 'no-claude'), trusted: false });
      expect(untrusted.rules.allow, f).toEqual([]);
      expect(untrusted.rules.deny, f).toEqual(trusted.rules.deny);
      expect(untrusted.rules.ask, f).toEqual(trusted.rules.ask);
    }
    expect(rules).toBeGreaterThan(100);
  });
});

describe('anchors through symlinks', () => {
  it('a ~/.claude kept elsewhere (a dotfiles repository) anchors its /-rules where the files really are', async () => {
    const dotfiles = join(root, 'dotfiles', 'claude');
    await mkdir(dirname(dotfiles), { recursive: true });
    await rm(claudeHome, { recursive: true });
    await mkdir(dotfiles);
    await symlink(dotfiles, claudeHome);
    await write(join(dotfiles, 'settings.json'), { permissions: { allow: ['Read(/notes/**)'] } });
    const checker = await checkerFor({ trusted: true });
    expect((await checker.check(readTool, at(join(claudeHome, 'notes', 'a.md')))).behavior).toBe('allow');
    expect((await checker.check(readTool, at(join(dotfiles, 'notes', 'a.md')))).behavior).toBe('allow');
  });
});
