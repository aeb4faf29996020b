import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, repoRoot, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// A project's .mcp.json server added after the folder was trusted, in the built cairn in a real
// terminal (tmux): asked about once at start, started when approved (its tool works), remembered
// (not asked again), and a server added later still is asked about on its own.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const fixture = join(repoRoot, 'test/fixtures/mcp/stdio-server.mjs');
const stdio = (name: string) => ({ command: process.execPath, args: [fixture, '--name', name] });
const QUESTION = 'Start it? [y] yes';

async function trustedProject(): Promise<{ dir: string; home: string }> {
  const ws = await tempWorkspace();
  // Trusted in an earlier session, when there was no .mcp.json.
  await writeFile(join(ws.home, 'trusted-folders.json'), JSON.stringify({ folders: { [ws.dir]: { trustedAt: '2026-01-01T00:00:00.000Z' } } }));
  return ws;
}

async function launch(ws: { dir: string; home: string }): Promise<TmuxTerminal> {
  const term = TmuxTerminal.start({ cwd: ws.dir, columns: 140, rows: 45, env: { CAIRN_HOME: ws.home, CLAUDE_CONFIG_DIR: join(ws.home, 'claude'), MCP_TIMEOUT: '20000' } });
  terminals.push(term);
  await term.waitForText('shell$');
  term.type(`node ${cairnBin}`);
  term.keys('Enter');
  return term;
}

async function answer(term: TmuxTerminal, text: string): Promise<void> {
  await term.waitForScreen((s) => s.trimEnd().endsWith('Enter: not now'), 'the answer line');
  if (text) term.type(text);
  term.keys('Enter');
}

async function quit(term: TmuxTerminal): Promise<void> {
  term.keys('C-d');
  await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt');
}

describe.skipIf(!TmuxTerminal.available())('project MCP servers added after the folder was trusted', () => {
  it('asks once; a yes starts the server (its tool works) and is remembered; a server added later is asked about alone; a no shows as declined', async () => {
    const ws = await trustedProject();
    await writeFile(join(ws.dir, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdio('proj') } }));

    const term = await launch(ws);
    const asked = await term.waitForText(QUESTION);
    expect(asked).toContain(`New MCP server in ${ws.dir}: "proj"`);
    expect(asked).toContain(`from ${join(ws.dir, '.mcp.json')}`);
    expect(asked).not.toContain('Ask cairn');
    expect(asked).not.toContain('Trust this folder');
    await answer(term, 'y');
    await term.waitForText('MCP 1 connected');
    term.type('use mcp tool mcp__proj__echo {"text": "approved"}');
    term.keys('Enter');
    await term.waitForText('Allow mcp__proj__echo?');
    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForScreen((s) => s.includes('echo from proj: approved'), 'the tool result');
    const stored = JSON.parse(await readFile(join(ws.home, 'mcp-project-servers.json'), 'utf8')) as unknown;
    expect(stored).toEqual({ projects: { [ws.dir]: { approved: ['proj'], declined: [] } } });
    await quit(term);

    // The next start does not ask; the server starts.
    const again = await launch(ws);
    const first = await again.waitForScreen((s) => s.includes('Ask cairn') || s.includes(QUESTION), 'the app or the question');
    expect(first).not.toContain(QUESTION);
    await again.waitForText('MCP 1 connected');
    await quit(again);

    // A server added to .mcp.json since (a pull, an edit): asked about on its own; a no keeps it off.
    await writeFile(join(ws.dir, '.mcp.json'), JSON.stringify({ mcpServers: { proj: stdio('proj'), added: stdio('added') } }));
    const third = await launch(ws);
    const askedAgain = await third.waitForText(QUESTION);
    expect(askedAgain).toContain('"added"');
    expect(askedAgain).not.toContain('"proj"');
    await answer(third, 'n');
    await third.waitForText('MCP 1 connected, 1 disabled');
    third.type('/mcp');
    third.keys('Enter');
    const listed = await third.waitForText('/mcp reconnect <name>');
    expect(listed).toMatch(/added +declined +stdio, project/);
    expect(listed).toMatch(/proj +connected +stdio, project/);
  }, 120_000);

  it('Enter alone decides nothing: the server needs approval (as /mcp says) and is asked about next time', async () => {
    const ws = await trustedProject();
    await writeFile(join(ws.dir, '.mcp.json'), JSON.stringify({ mcpServers: { later: stdio('later') } }));
    const term = await launch(ws);
    await term.waitForText(QUESTION);
    await answer(term, '');
    await term.waitForText('Ask cairn');
    term.type('/mcp');
    term.keys('Enter');
    const listed = await term.waitForText('/mcp reconnect <name>');
    expect(listed).toMatch(/later +needs approval +stdio, project/);
    await quit(term);
    const again = await launch(ws);
    await again.waitForText(QUESTION);
  }, 60_000);
});
