import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// MCP in the built cairn, in a real terminal (tmux), on the offline model, with real stdio servers.
const { start } = cairnTerminals();
const fixture = path.join(repoRoot, 'test/fixtures/mcp/stdio-server.mjs');
const stdio = (name: string, ...args: string[]) => ({ command: process.execPath, args: [fixture, '--name', name, ...args] });
const mcpJson = JSON.stringify({ mcpServers: { alpha: stdio('alpha'), ghost: stdio('ghost', '--fail-at-start') } });

describe.skipIf(!TmuxTerminal.available())('MCP servers in a real terminal', () => {
  it('warns about a failed server; /mcp shows it and the connected one; a tool call is asked and its card shows the result', async () => {
    const { term } = await start({ homeFiles: { 'mcp.json': mcpJson }, columns: 140, rows: 45, env: { MCP_TIMEOUT: '20000' } });
    // The failure is told on its own, with the server's stderr a /mcp away.
    await term.waitForText('MCP server "ghost" failed');
    await term.waitForText('MCP 1 connected, 1 failed');

    term.type('/mcp');
    term.keys('Enter');
    const listed = await term.waitForText('/mcp reconnect <name>');
    expect(listed).toMatch(/alpha +connected +stdio, user +5 tools, 1 prompt, resources/);
    expect(listed).toMatch(/tools: mcp__alpha__echo, mcp__alpha__add/);
    expect(listed).toMatch(/prompts: \/mcp__alpha__review/);
    expect(listed).toMatch(/skipped: "broken": invalid input schema/);
    expect(listed).toMatch(/ghost +failed/);
    expect(listed).toContain('cannot open the database at /nowhere');

    term.type('use mcp tool mcp__alpha__echo {"text": "through the card"}');
    term.keys('Enter');
    await term.waitForText('Allow mcp__alpha__echo?');
    await term.pauseBeforeAnswering();
    term.keys('y');
    const done = await term.waitForScreen((s) => /✓ mcp__alpha__echo/.test(s) && s.includes('echo from alpha: through the card'), 'the card with its result');
    expect(done).not.toContain('Allow mcp__alpha__echo?');
  });

  it("runs a server's prompt as a slash command picked from the palette, with its argument", async () => {
    const { term } = await start({ homeFiles: { 'mcp.json': JSON.stringify({ mcpServers: { alpha: stdio('alpha') } }) }, files: { 'notes.txt': 'the notes file body\n' }, columns: 140, rows: 45, env: { MCP_TIMEOUT: '20000' } });
    await term.waitForText('MCP 1 connected');
    term.type('/mcp__al');
    await term.waitForScreen((s) => /› \/mcp__alpha__review <file> +Review a file \(MCP server "alpha"\)/.test(s), 'the palette entry with its argument');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('/mcp__alpha__review') && !s.includes('(MCP server "alpha")'), 'the command name in the prompt, the palette closed');
    term.type('notes.txt');
    term.keys('Enter');
    // The server's prompt text ("read notes.txt") is what is sent; the offline model reads the file.
    await term.waitForText('read notes.txt');
    await term.waitForScreen((s) => /read_file/.test(s) && s.includes('notes.txt'), 'the read card');
  });
});
