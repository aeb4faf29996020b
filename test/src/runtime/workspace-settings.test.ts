import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceSettings, type TrustQuestion } from '../../../src/runtime/workspace-settings.js';

let root: string;
let ws: string;
let cairnHome: string;
let claudeDir: string;

const write = async (file: string, data: unknown): Promise<void> => {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(data));
};

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-ws-settings-')));
  ws = join(root, 'ws');
  cairnHome = join(root, 'cairn-home');
  claudeDir = join(root, 'claude');
  await mkdir(ws, { recursive: true });
  await write(join(claudeDir, 'settings.json'), { env: { SHARED: 'user', USER_ONLY: 'u', DROPPED: 'x' }, model: 'user-model' });
  await write(join(ws, '.claude', 'settings.json'), { env: { SHARED: 'project', DROPPED: '' }, model: 'project-model', spinnerVerbs: ['x'], permissions: { disableAutoMode: 'disable' } });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const run = async (extra: { env?: NodeJS.ProcessEnv; flagModel?: string; answer?: boolean } = {}) => {
  const env: NodeJS.ProcessEnv = { CLAUDE_CONFIG_DIR: claudeDir, DROPPED: 'from-shell', ...extra.env };
  const notices: string[] = [];
  const asked: TrustQuestion[] = [];
  const answer = extra.answer;
  const out = await workspaceSettings({
    cwd: ws,
    cairnHome,
    env,
    notices,
    ...(extra.flagModel ? { flagModel: extra.flagModel } : {}),
    ...(answer !== undefined ? { askTrust: async (q: TrustQuestion) => (asked.push(q), answer) } : {}),
  });
  return { out, env, notices, asked };
};

describe('workspaceSettings', () => {
  it('trusted: env merges per variable (the more specific file wins, "" unsets), model from the most specific file', async () => {
    const { out, env, asked } = await run({ answer: true });
    expect(asked).toEqual([{ folder: ws, wouldApply: [`${join(ws, '.claude', 'settings.json')}: env (SHARED, DROPPED)`] }]);
    expect(out).toMatchObject({ trusted: true, model: 'project-model' });
    expect(env['SHARED']).toBe('project');
    expect(env['USER_ONLY']).toBe('u');
    expect('DROPPED' in env).toBe(false);
  });

  it("not trusted: the folder's env waits, the user's applies; the folder's model (harmless) still counts", async () => {
    const { out, env, notices } = await run({ answer: false });
    expect(out.trusted).toBe(false);
    expect(env['SHARED']).toBe('user');
    expect(env['DROPPED']).toBe('x');
    expect(notices.some((n) => n.startsWith('This folder is not trusted') && n.includes('You will be asked again next time'))).toBe(true);
  });

  it('--model and $CAIRN_MODEL win over the settings', async () => {
    expect((await run({ flagModel: 'flag-model' })).out.model).toBe('flag-model');
    expect((await run({ env: { CAIRN_MODEL: 'env-model' } })).out.model).toBeUndefined();
  });

  it('keys cairn does not use are named once per file; keys other modules own are not', async () => {
    await write(join(ws, '.claude', 'settings.local.json'), { hooks: {}, sandbox: {}, mcpServers: {}, statusLine: {}, cleanupPeriodDays: 3, webSearch: {}, largeOutputThreshold: 40_000 });
    const { notices } = await run();
    expect(notices.filter((n) => n.includes('cairn does not support'))).toEqual([
      `${join(ws, '.claude', 'settings.json')}: cairn does not support "spinnerVerbs", "permissions.disableAutoMode"; they are ignored`,
    ]);
  });
});

describe('the trust question', () => {
  it('also names .hooks.json and .mcp.json, which wait for trust too; a folder with nothing to widen is not asked about', async () => {
    await rm(join(ws, '.claude'), { recursive: true });
    expect((await run({ answer: true })).asked).toEqual([]);
    await writeFile(join(ws, '.mcp.json'), '{"mcpServers": {}}');
    const { asked, out } = await run({ answer: true });
    expect(asked[0]?.wouldApply).toEqual([`${join(ws, '.mcp.json')}: MCP servers (commands started for their tools)`]);
    expect(out.trusted).toBe(true);
  });
});
