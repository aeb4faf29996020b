import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { cairnBin, repoRoot, runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// --mcp-config through the built cairn and the offline model, and how soon a headless run with a
// server ends once its answer is out.
const fixture = path.join(repoRoot, 'test/fixtures/mcp/stdio-server.mjs');
const stdio = (name: string, ...args: string[]) => ({ command: process.execPath, args: [fixture, '--name', name, ...args] });
const servers = (entries: Record<string, unknown>) => JSON.stringify({ mcpServers: entries });

describe('--mcp-config (headless)', () => {
  it('starts the servers of a file (relative to the workspace) and of a JSON string, without asking', async () => {
    const ws = await tempWorkspace({ 'config/servers.json': servers({ filed: stdio('filed') }) });
    const args = ['--mcp-config', 'config/servers.json', servers({ inline: stdio('inline') }), '--allowed-tools', 'mcp__filed', 'mcp__inline', '--output-format', 'stream-json'];
    const filed = await runCairn(['-p', 'use mcp tool mcp__filed__echo {"text": "from a file"}', ...args], { cwd: ws.dir, home: ws.home, env: { MCP_TIMEOUT: '10000' }, timeoutMs: 30_000 });
    expect(filed.code, filed.stderr).toBe(0);
    expect(ofType(filed.events, 'tool_result')[0]).toMatchObject({ content: 'echo from filed: from a file', is_error: false });
    const inline = await runCairn(['-p', 'use mcp tool mcp__inline__echo {"text": "inline"}', ...args], { cwd: ws.dir, home: ws.home, env: { MCP_TIMEOUT: '10000' }, timeoutMs: 30_000 });
    expect(ofType(inline.events, 'tool_result')[0]).toMatchObject({ content: 'echo from inline: inline', is_error: false });
  });

  it('a file that does not exist is named on stderr, and the run goes on', async () => {
    const ws = await tempWorkspace();
    const r = await runCairn(['-p', 'hello', '--mcp-config', 'nowhere.json'], { cwd: ws.dir, home: ws.home });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/nowhere\.json/);
  });

  it("--mcp-config naming the project's own .mcp.json tells each of its problems once", async () => {
    const ws = await tempWorkspace({ '.mcp.json': servers({ v: { ...stdio('v'), env: { TOKEN: '${CAIRN_TEST_UNSET_TOKEN}' } }, bad: 5 }) });
    const r = await runCairn(['-p', 'hello', '--mcp-config', '.mcp.json'], { cwd: ws.dir, home: ws.home, env: { MCP_TIMEOUT: '10000' }, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    const count = (text: string): number => r.stderr.split('\n').filter((line) => line.includes(text)).length;
    expect(count('${CAIRN_TEST_UNSET_TOKEN} not set'), r.stderr).toBe(1);
    expect(count('MCP server "bad": expected an object'), r.stderr).toBe(1);
  });

  it('a headless run whose server stays up after its stdin ends still exits promptly once the answer is out', async () => {
    const ws = await tempWorkspace();
    await fs.writeFile(path.join(ws.home, 'mcp.json'), servers({ alpha: stdio('alpha', '--linger') }));
    const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: ws.home, MCP_TIMEOUT: '10000' };
    for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'DEEPSEEK_API_KEY', 'CAIRN_PROVIDER', 'CAIRN_MODEL']) delete env[key];
    const child = spawn(process.execPath, [cairnBin, '-p', 'use mcp tool mcp__alpha__echo {"text": "bye"}', '--allowed-tools', 'mcp__alpha'], { cwd: ws.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let answeredAt = 0;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!answeredAt && stdout.includes('echo from alpha: bye')) answeredAt = Date.now();
    });
    const exitedAt = await new Promise<number>((resolve) => child.on('close', () => resolve(Date.now())));
    expect(answeredAt, stdout).toBeGreaterThan(0);
    // The SDK alone waits 2 s for such a server before SIGTERM; cairn signals it after 0.2 s.
    expect(exitedAt - answeredAt).toBeLessThan(1_500);
  });
});
