import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpChoicesFile, readMcpChoices } from '../../../src/mcp/mcp-project-choices.js';
import { settleMcpChoices, type McpServerAnswer, type McpServerQuestion } from '../../../src/runtime/mcp-choices-at-start.js';

// The question about a trusted project's new MCP servers, with real files in temp folders.
async function project(servers: Record<string, unknown>) {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-mcp-ask-')));
  const cwd = path.join(base, 'ws');
  const cairnHome = path.join(base, 'home');
  await fs.mkdir(cwd, { recursive: true });
  await fs.mkdir(cairnHome, { recursive: true });
  const write = (s: Record<string, unknown>) => fs.writeFile(path.join(cwd, '.mcp.json'), JSON.stringify({ mcpServers: s }));
  await write(servers);
  return { cwd, cairnHome, claudeHome: path.join(base, 'claude'), write };
}

function asker(answers: Record<string, McpServerAnswer>) {
  const asked: McpServerQuestion[] = [];
  return {
    asked,
    ask: async (q: McpServerQuestion): Promise<McpServerAnswer> => {
      asked.push(q);
      return answers[q.server.name] ?? 'later';
    },
  };
}

const server = (cmd: string) => ({ command: cmd, args: ['--flag'] });

describe('settleMcpChoices', () => {
  it('asks once per new server in a trusted folder, remembers yes and no, and asks only about a server added later', async () => {
    const p = await project({ one: server('one-bin'), two: server('two-bin'), three: server('three-bin') });
    const first = asker({ one: 'approve', two: 'decline' });
    const notices: string[] = [];
    const choices = await settleMcpChoices({ ...p, env: {}, trusted: true, ask: first.ask, notices });
    expect(first.asked.map((q) => [q.server.name, q.index, q.count])).toEqual([['one', 1, 3], ['two', 2, 3], ['three', 3, 3]]);
    expect(first.asked[0]!.server).toEqual({ name: 'one', source: path.join(p.cwd, '.mcp.json'), what: 'runs: one-bin --flag' });
    expect(choices).toEqual({ approved: ['one'], declined: ['two'] });
    expect(notices).toEqual([]);
    // "Not now" (three) is not remembered: asked again. The answered ones are not.
    const again = asker({});
    await settleMcpChoices({ ...p, env: {}, trusted: true, ask: again.ask, notices });
    expect(again.asked.map((q) => q.server.name)).toEqual(['three']);

    // A server added after all this is asked about; the others are not.
    await p.write({ one: server('one-bin'), two: server('two-bin'), three: server('three-bin'), added: server('evil') });
    const later = asker({ three: 'decline', added: 'approve' });
    const after = await settleMcpChoices({ ...p, env: {}, trusted: true, ask: later.ask, notices });
    expect(later.asked.map((q) => q.server.name)).toEqual(['three', 'added']);
    expect(after).toEqual({ approved: ['one', 'added'], declined: ['two', 'three'] });
    expect(await readMcpChoices({ cairnHome: p.cairnHome, workspace: p.cwd })).toEqual({ approved: ['one', 'added'], declined: ['two', 'three'], problems: [] });
  });

  it('"approve all" approves the one asked and the rest asked about now, not servers added later', async () => {
    const p = await project({ a: server('a'), b: server('b'), c: server('c') });
    const ask = asker({ b: 'approve-all' });
    expect(await settleMcpChoices({ ...p, env: {}, trusted: true, ask: ask.ask, notices: [] })).toEqual({ approved: ['b', 'c'], declined: [] });
    expect(ask.asked.map((q) => q.server.name)).toEqual(['a', 'b']);
    await p.write({ a: server('a'), b: server('b'), c: server('c'), d: server('d') });
    const next = asker({});
    await settleMcpChoices({ ...p, env: {}, trusted: true, ask: next.ask, notices: [] });
    expect(next.asked.map((q) => q.server.name)).toEqual(['a', 'd']);
  });

  it('asks nothing in an untrusted folder, headless (no one to ask), or about servers the user settings already approve', async () => {
    const p = await project({ a: server('a') });
    const ask = asker({ a: 'approve' });
    expect(await settleMcpChoices({ ...p, env: {}, trusted: false, ask: ask.ask, notices: [] })).toEqual({ approved: [], declined: [] });
    expect(await settleMcpChoices({ ...p, env: {}, trusted: true, notices: [] })).toEqual({ approved: [], declined: [] });
    await fs.writeFile(path.join(p.cairnHome, 'settings.json'), JSON.stringify({ enabledMcpjsonServers: ['a'] }));
    await settleMcpChoices({ ...p, env: {}, trusted: true, ask: ask.ask, notices: [] });
    expect(ask.asked).toEqual([]);
  });

  it("tells nothing about the MCP configuration's own problems (setUpMcp tells them once), but names a store it cannot use", async () => {
    const p = await project({ a: { command: 'x', args: ['${CAIRN_UNSET_Q}'] }, bad: 5 });
    const notices: string[] = [];
    await settleMcpChoices({ ...p, env: {}, trusted: true, ask: asker({}).ask, notices });
    expect(notices).toEqual([]);
    await fs.writeFile(mcpChoicesFile(p.cairnHome), '{oops');
    const ask = asker({ a: 'approve' });
    const choices = await settleMcpChoices({ ...p, env: {}, trusted: true, ask: ask.ask, notices });
    expect(notices[0]).toMatch(/mcp-project-servers\.json: invalid JSON.*asked about again/);
    // The answer holds for this session; the broken store is not overwritten.
    expect(choices.approved).toEqual(['a']);
    expect(notices[1]).toMatch(/this session only, not remembered/);
    expect(await fs.readFile(mcpChoicesFile(p.cairnHome), 'utf8')).toBe('{oops');
  });
});
