import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { repoRoot, runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// --bare (Claude Code's flag for scripts) through the built binary against a loopback Anthropic
// server: the same workspace and CAIRN_HOME run with and without it, and what the server was sent
// (system prompt, tools) and which hooks ran tell what was discovered.
const SLOW = { timeout: 120_000 };
const fixture = path.join(repoRoot, 'test/fixtures/mcp/stdio-server.mjs');
const stdio = (name: string) => ({ command: process.execPath, args: [fixture, '--name', name] });

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const exists = (file: string) => fs.access(file).then(() => true, () => false);

async function workspace() {
  const ws = await tempWorkspace({
    'CLAUDE.md': 'PROJECT-RULE-MARK: run make check before committing.\n',
    'AGENTS.md': 'AGENTS-FILE-MARK\n',
  });
  const file = async (name: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(ws.home, name)), { recursive: true });
    await fs.writeFile(path.join(ws.home, name), text);
  };
  const userHookMarker = path.join(ws.home, 'user-hook-ran');
  const flagHookMarker = path.join(ws.home, 'flag-hook-ran');
  const hook = (marker: string) => ({ UserPromptSubmit: [{ hooks: [{ type: 'command', command: `touch '${marker}'` }] }] });
  await file('settings.json', JSON.stringify({ hooks: hook(userHookMarker) }));
  await file('mcp.json', JSON.stringify({ mcpServers: { userserver: stdio('userserver') } }));
  await file('memory/MEMORY.md', '# Memory (user)\n\n- USER-MEMORY-MARK\n');
  await file('skills/deployer/SKILL.md', '---\nname: deployer\ndescription: DEPLOY-SKILL-MARK deploys the app\n---\nDeploy.\n');
  await file('agents/reviewer.md', '---\nname: reviewer\ndescription: REVIEWER-AGENT-MARK reviews diffs\n---\nReview.\n');
  const flags = [
    '--settings', JSON.stringify({ hooks: hook(flagHookMarker) }),
    '--mcp-config', JSON.stringify({ mcpServers: { flagserver: stdio('flagserver') } }),
    '--agents', JSON.stringify({ flagagent: { description: 'FLAG-AGENT-MARK checks things', prompt: 'Check.' } }),
    '--append-system-prompt', 'APPENDED-MARK',
  ];
  return { ws, flags, userHookMarker, flagHookMarker };
}

async function run(bare: boolean) {
  const { ws, flags, userHookMarker, flagHookMarker } = await workspace();
  server = await startAnthropicServer([anthropicReply([{ type: 'text', text: 'ok' }])]);
  const r = await runCairn(['-p', 'hi', '--provider', 'anthropic', ...flags, ...(bare ? ['--bare'] : [])], {
    cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url, MCP_TIMEOUT: '15000' }, timeoutMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const body = server.requests[0]!.body;
  const system = (body.system ?? []).map((b) => b.text).join('\n');
  const tools = (body.tools ?? []) as { name: string }[];
  return { system, toolNames: tools.map((t) => t.name), toolsText: JSON.stringify(tools), userHook: await exists(userHookMarker), flagHook: await exists(flagHookMarker), stderr: r.stderr };
}

describe('--bare', SLOW, () => {
  it('without it, everything in the folders is found (the control for the test below)', async () => {
    const r = await run(false);
    expect(r.system).toContain('PROJECT-RULE-MARK');
    expect(r.system).toContain('AGENTS-FILE-MARK');
    expect(r.system).toContain('USER-MEMORY-MARK');
    expect(r.system).toContain('DEPLOY-SKILL-MARK');
    expect(r.toolNames).toContain('mcp__userserver__echo');
    expect(r.toolsText).toContain('REVIEWER-AGENT-MARK');
    expect(r.userHook).toBe(true);
  });

  it('with it, nothing is discovered: no instruction, memory, skill, agent or MCP file, no settings hook; what the flags pass still counts', async () => {
    const r = await run(true);
    for (const mark of ['PROJECT-RULE-MARK', 'AGENTS-FILE-MARK', 'USER-MEMORY-MARK', 'DEPLOY-SKILL-MARK']) expect(r.system, mark).not.toContain(mark);
    expect(r.toolNames.filter((n) => n.startsWith('mcp__userserver'))).toEqual([]);
    expect(r.toolsText).not.toContain('REVIEWER-AGENT-MARK');
    expect(r.userHook).toBe(false);
    // Passed on the command line: --append-system-prompt, --mcp-config, --agents, --settings' hooks.
    expect(r.system.trimEnd().endsWith('APPENDED-MARK')).toBe(true);
    expect(r.toolNames).toContain('mcp__flagserver__echo');
    expect(r.toolsText).toContain('FLAG-AGENT-MARK');
    expect(r.flagHook).toBe(true);
    // The flag is not mistaken for an unknown settings key.
    expect(r.stderr).not.toContain('does not support');
    // Still the workspace and the built-in tools.
    expect(r.toolNames).toEqual(expect.arrayContaining(['read_file', 'bash']));
  });
});
