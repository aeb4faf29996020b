import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { approveServer } from '../../../src/mcp/mcp-approval.js';
import { loadMcpConfig } from '../../../src/mcp/mcp-config.js';
import type { SettingsLayer } from '../../../src/settings/settings-layers.js';

async function dirs(files: Record<string, unknown>) {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-mcp-')));
  const workspace = path.join(base, 'ws');
  const cairnHome = path.join(base, 'home');
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(base, name);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, typeof content === 'string' ? content : JSON.stringify(content));
  }
  await fs.mkdir(workspace, { recursive: true });
  await fs.mkdir(cairnHome, { recursive: true });
  return { workspace, cairnHome };
}

const layer = (scope: SettingsLayer['scope'], data: Record<string, unknown>): SettingsLayer => ({ file: `/${scope}/settings.json`, scope, family: 'claude', data });

describe('loadMcpConfig', () => {
  it("reads Claude Code's .mcp.json with ${VAR} and ${VAR:-default} in command, args, env, url and headers", async () => {
    const at = await dirs({
      'ws/.mcp.json': {
        mcpServers: {
          local: { command: '${BIN}', args: ['--root', '${ROOT:-/srv}'], env: { TOKEN: '${TOKEN}' } },
          remote: { type: 'http', url: '${BASE:-https://x.example}/mcp', headers: { Authorization: 'Bearer ${T}' } },
        },
      },
    });
    const { servers, problems } = await loadMcpConfig({ ...at, layers: [], env: { BIN: 'srv', TOKEN: 'sekret' } });
    expect(servers).toEqual([
      { name: 'local', scope: 'project', source: path.join(at.workspace, '.mcp.json'), config: { transport: 'stdio', command: 'srv', args: ['--root', '/srv'], env: { TOKEN: 'sekret' } } },
      { name: 'remote', scope: 'project', source: path.join(at.workspace, '.mcp.json'), config: { transport: 'http', url: 'https://x.example/mcp', headers: { Authorization: 'Bearer ${T}' } } },
    ]);
    expect(problems).toEqual([`${path.join(at.workspace, '.mcp.json')}: MCP server "remote": \${T} not set; left as written`]);
  });

  it('names the file and server for each bad entry and keeps the good ones', async () => {
    const at = await dirs({
      'home/mcp.json': {
        mcpServers: {
          nourl: { url: 'http://x' },
          ws: { type: 'ws', url: 'ws://x' },
          empty: { command: '' },
          'bad name': { command: 'x' },
          github__evil: { command: 'x' },
          ok: { command: 'ok' },
        },
      },
    });
    const { servers, problems } = await loadMcpConfig({ ...at, layers: [], env: {} });
    expect(servers.map((s) => s.name)).toEqual(['ok']);
    const file = path.join(at.cairnHome, 'mcp.json');
    expect(problems).toEqual([
      `${file}: MCP server "nourl": "url" needs "type": "http" or "sse"; not started`,
      `${file}: MCP server "ws": "type" "ws" is not supported (stdio, http, sse); not started`,
      expect.stringMatching(new RegExp(`^${file}: MCP server "empty": "command": .*; not started$`)),
      `${file}: MCP server "bad name": a server name has only letters, digits, "_" and "-"; not started`,
      `${file}: MCP server "github__evil": a server name may not contain "__" (its tools would fall under the rules of server "github"); not started`,
    ]);
  });

  it('a file that is not JSON is reported and its servers left out', async () => {
    const at = await dirs({ 'ws/.mcp.json': '{ nope' });
    const { servers, problems } = await loadMcpConfig({ ...at, layers: [], env: {} });
    expect(servers).toEqual([]);
    expect(problems[0]).toMatch(/\.mcp\.json: invalid JSON/);
  });

  it('a later source replaces a server of the same name whole: user < .mcp.json < project settings < --mcp-config', async () => {
    const at = await dirs({
      'home/mcp.json': { mcpServers: { a: { command: 'user' }, b: { command: 'user' } } },
      'ws/.mcp.json': { mcpServers: { a: { command: 'project', args: ['x'] } } },
      'ws/flag.json': { mcpServers: { c: { command: 'flag-file' } } },
    });
    const { servers } = await loadMcpConfig({
      ...at,
      layers: [layer('user', { mcpServers: { b: { command: 'user-settings' } } })],
      flagConfigs: ['flag.json', '{"mcpServers": {"a": {"command": "flag-json"}}}'],
      env: {},
    });
    const summary = Object.fromEntries(servers.map((s) => [s.name, [s.scope, s.config.transport === 'stdio' ? s.config.command : '']]));
    expect(summary).toEqual({ a: ['flag', 'flag-json'], b: ['user', 'user-settings'], c: ['flag', 'flag-file'] });
  });
});

describe('loadMcpConfig: a file named by --mcp-config that is also read from its usual place', () => {
  it('--mcp-config .mcp.json (however spelled, or given twice) reads it once: each problem is told once, and its servers are the flag\'s', async () => {
    const at = await dirs({ 'ws/.mcp.json': { mcpServers: { v: { command: 'x', env: { A: '${UNSET_Q}' } }, bad: 5 } } });
    const mcpJson = path.join(at.workspace, '.mcp.json');
    for (const flagConfigs of [['.mcp.json'], ['./.mcp.json', mcpJson]]) {
      const { servers, problems } = await loadMcpConfig({ ...at, layers: [], flagConfigs, env: {} });
      expect([...problems].sort()).toEqual([
        `${mcpJson}: MCP server "bad": expected an object with "command" or "type" and "url"; not started`,
        `${mcpJson}: MCP server "v": \${UNSET_Q} not set; left as written`,
      ]);
      expect(servers.map((s) => [s.name, s.scope])).toEqual([['v', 'flag']]);
    }
  });

  it('$CAIRN_HOME/mcp.json named by the flag through a symlink is read once too', async () => {
    const at = await dirs({ 'home/mcp.json': { mcpServers: { u: { command: 'y', args: ['${UNSET_R}'] } } } });
    const link = path.join(at.workspace, 'linked.json');
    await fs.symlink(path.join(at.cairnHome, 'mcp.json'), link);
    const { problems } = await loadMcpConfig({ ...at, layers: [], flagConfigs: ['linked.json'], env: {} });
    expect(problems).toEqual([`${link}: MCP server "u": \${UNSET_R} not set; left as written`]);
  });
});

describe('approveServer', () => {
  const project = { name: 'gh', scope: 'project' as const, source: '.mcp.json', config: { transport: 'stdio' as const, command: 'x', args: [], env: {} } };
  const user = { ...project, scope: 'user' as const };

  it('a project server waits until the user approves it by name: trusting the folder is not enough', () => {
    expect(approveServer(project, { layers: [], trusted: false })).toMatchObject({ start: false, state: 'pending', why: expect.stringMatching(/needs approval.*trust this workspace/) });
    // Trusted before the server was added (a pull, an edit of .mcp.json): still asked.
    expect(approveServer(project, { layers: [], trusted: true })).toMatchObject({ start: false, state: 'pending', why: expect.stringMatching(/needs approval: a new project server.*enabledMcpjsonServers/) });
    expect(approveServer(project, { layers: [], trusted: true, choices: { approved: ['other'], declined: [] } }).start).toBe(false);
    expect(approveServer(project, { layers: [], trusted: true, choices: { approved: ['gh'], declined: [] } })).toEqual({ start: true });
    expect(approveServer(user, { layers: [], trusted: false })).toEqual({ start: true });
  });

  it('a remembered answer counts only in a trusted folder; a remembered no keeps it off', () => {
    expect(approveServer(project, { layers: [], trusted: false, choices: { approved: ['gh'], declined: [] } }).start).toBe(false);
    expect(approveServer(project, { layers: [], trusted: true, choices: { approved: [], declined: ['gh'] } })).toMatchObject({ start: false, state: 'disabled', why: expect.stringMatching(/^declined when asked/) });
  });

  it("user settings approve it (enableAllProjectMcpServers, enabledMcpjsonServers); the project's own settings do not", () => {
    expect(approveServer(project, { layers: [layer('user', { enableAllProjectMcpServers: true })], trusted: false })).toEqual({ start: true });
    expect(approveServer(project, { layers: [layer('user', { enabledMcpjsonServers: ['gh'] })], trusted: false })).toEqual({ start: true });
    expect(approveServer(project, { layers: [layer('user', { enabledMcpjsonServers: ['other'] })], trusted: false }).start).toBe(false);
    // A cloned repository approving its own servers proves nothing.
    expect(approveServer(project, { layers: [layer('project', { enableAllProjectMcpServers: true })], trusted: false }).start).toBe(false);
    expect(approveServer(project, { layers: [layer('local', { enabledMcpjsonServers: ['gh'] })], trusted: false }).start).toBe(false);
    // Nor once the folder is trusted: the repository (or the model, editing its files) must not approve its own servers.
    expect(approveServer(project, { layers: [layer('project', { enableAllProjectMcpServers: true })], trusted: true }).start).toBe(false);
    expect(approveServer(project, { layers: [layer('project', { enabledMcpjsonServers: ['gh'] })], trusted: true }).start).toBe(false);
    expect(approveServer(project, { layers: [layer('local', { enableAllProjectMcpServers: true, enabledMcpjsonServers: ['gh'] })], trusted: true }).start).toBe(false);
  });

  it('disabledMcpjsonServers wins over every approval and over trust', () => {
    const layers = [layer('user', { enableAllProjectMcpServers: true }), layer('local', { disabledMcpjsonServers: ['gh'] })];
    expect(approveServer(project, { layers, trusted: true, choices: { approved: ['gh'], declined: [] } })).toMatchObject({ start: false, state: 'disabled', why: expect.stringMatching(/^declined in .*disabledMcpjsonServers/) });
    // In a committed file too: a rejection only makes things safer.
    expect(approveServer(project, { layers: [layer('user', { enabledMcpjsonServers: ['gh'] }), layer('project', { disabledMcpjsonServers: ['gh'] })], trusted: true }).start).toBe(false);
  });
});
