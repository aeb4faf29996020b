import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import type { Message } from '../../../src/messages.js';
import type { AskPermission } from '../../../src/permissions/types.js';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { realPermissions } from '../../helpers/real-permissions.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

let dir: string;
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-stale-')));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const fileTools = () => [createReadFileTool(), createWriteFileTool(), createEditFileTool(), createBashTool()];

/**
 * A session whose model makes the given calls, one prompt each, each followed by a short answer; a subagent's model makes `subagentCalls`.
 * With `ask`, the real chain in default mode (a write with no rule for it is asked); without, bypassPermissions.
 */
async function session(calls: Message[], ask?: AskPermission, subagentCalls: Message[] = []) {
  const replies = calls.flatMap((call) => [call, assistantText('ok')]);
  const events: AgentEvent[] = [];
  const child = scriptedProvider([...subagentCalls, assistantText('done')]);
  const chain = await realPermissions({ workspace: dir, mode: ask ? 'default' : 'bypassPermissions' });
  const agent = createAgentTool({ definitions: () => BUILTIN_AGENTS, tools: fileTools, permissions: chain.forMode, environment: () => 'env', cwd: dir, provider: () => child });
  const s = new AgentSession({
    provider: scriptedProvider(replies),
    tools: [...fileTools(), agent],
    permissions: chain.permissions,
    cwd: dir,
    system: () => 'system',
    interactive: ask !== undefined,
  });
  s.subscribe((e) => events.push(e));
  if (ask) Object.assign(s, { waitForAnswer: ask });
  const result = (id: string): EventOf<'tool_result'> | undefined => events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.id === id);
  return { s, events, result };
}

const edit = (id: string, file: string, from: string, to: string) => toolCall(id, 'edit_file', { path: file, old_string: from, new_string: to });
const read = (id: string, file: string) => toolCall(id, 'read_file', { path: file });
const write = (id: string, file: string, content: string) => toolCall(id, 'write_file', { path: file, content });
const file = (name: string) => fs.readFile(path.join(dir, name), 'utf8');

describe('edit_file and write_file refuse a stale read', () => {
  it('refuses to edit a file not read in this session, saying so and what to do; the file is untouched', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    const { s, result } = await session([edit('e1', 'a.txt', 'alpha', 'beta')]);
    await s.run('edit it');
    expect(result('e1')).toMatchObject({ is_error: true, content: 'edit_file refused: a.txt has not been read in this session, so its current content is unknown to you. Read it with read_file, then call edit_file again.' });
    expect(await file('a.txt')).toBe('alpha\n');
  });

  it('edits after a read, in a later prompt too', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    const { s, result } = await session([read('r1', 'a.txt'), edit('e1', 'a.txt', 'alpha', 'beta'), edit('e2', 'a.txt', 'beta', 'gamma')]);
    await s.run('read it');
    await s.run('edit it');
    // Its own edit keeps the file known: a second edit needs no read.
    await s.run('edit again');
    expect(result('e1')?.is_error).toBe(false);
    expect(result('e2')?.is_error).toBe(false);
    expect(await file('a.txt')).toBe('gamma\n');
  });

  it('refuses an edit after the file changed on disk since the read, naming the change', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    const { s, result } = await session([read('r1', 'a.txt'), edit('e1', 'a.txt', 'alpha', 'beta'), read('r2', 'a.txt'), edit('e2', 'a.txt', 'alpha', 'beta')]);
    await s.run('read it');
    // The user (or a formatter) changes it meanwhile.
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha, edited by the user\n');
    await s.run('edit it');
    expect(result('e1')?.is_error).toBe(true);
    expect(result('e1')?.content).toMatch(/^edit_file refused: a\.txt changed on disk since you last read it \(modified \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, by the user, a formatter, another agent or a command\)\. Read it again with read_file/);
    expect(await file('a.txt')).toBe('alpha, edited by the user\n');
    // Read again, the edit goes through and keeps the user's change.
    await s.run('read it again');
    await s.run('edit it');
    expect(result('e2')?.is_error).toBe(false);
    expect(await file('a.txt')).toBe('beta, edited by the user\n');
  });

  it("counts the session's own bash command as a change, but not a touch that leaves the bytes as they were", async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    const bash = (id: string, command: string) => toolCall(id, 'bash', { command, description: command });
    const { s, result } = await session([read('r1', 'a.txt'), bash('b1', 'sleep 0.05; touch a.txt'), edit('e1', 'a.txt', 'alpha', 'beta'), bash('b2', "sed -i 's/beta/delta/' a.txt"), edit('e2', 'a.txt', 'delta', 'omega')]);
    for (const prompt of ['read', 'touch', 'edit', 'sed', 'edit']) await s.run(prompt);
    expect(result('b1')?.is_error).toBe(false);
    expect(result('e1')?.is_error).toBe(false);
    expect(result('e2')?.content).toMatch(/^edit_file refused: a\.txt changed on disk since you last read it/);
    expect(await file('a.txt')).toBe('delta\n');
  });

  it('a file the session created counts as read: it can be edited and overwritten', async () => {
    const { s, result } = await session([write('w1', 'new.txt', 'one\n'), edit('e1', 'new.txt', 'one', 'two'), write('w2', 'new.txt', 'three\n')]);
    await s.run('create it');
    await s.run('edit it');
    await s.run('overwrite it');
    expect([result('w1'), result('e1'), result('w2')].map((r) => r?.is_error)).toEqual([false, false, false]);
    expect(await file('new.txt')).toBe('three\n');
  });

  it('refuses to overwrite an existing file not read; a new file needs no read', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'precious\n');
    const { s, result } = await session([write('w1', 'a.txt', 'gone\n'), write('w2', 'fresh/b.txt', 'new\n')]);
    await s.run('overwrite it');
    await s.run('create another');
    expect(result('w1')).toMatchObject({ is_error: true, content: expect.stringMatching(/^write_file refused: a\.txt has not been read in this session/) });
    expect(await file('a.txt')).toBe('precious\n');
    expect(result('w2')?.is_error).toBe(false);
  });

  it('a path spelled another way (./, a symlink) is the same file', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    await fs.symlink(path.join(dir, 'a.txt'), path.join(dir, 'link.txt'));
    const { s, result } = await session([read('r1', './a.txt'), edit('e1', 'link.txt', 'alpha', 'beta')]);
    await s.run('read');
    await s.run('edit');
    expect(result('e1')?.is_error).toBe(false);
    expect(await file('a.txt')).toBe('beta\n');
  });

  it('/clear forgets what was read', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    const { s, result } = await session([read('r1', 'a.txt'), edit('e1', 'a.txt', 'alpha', 'beta')]);
    await s.run('read');
    s.clear();
    await s.run('edit');
    expect(result('e1')?.content).toMatch(/has not been read in this session/);
  });

  it('does not ask the user to approve an edit it would refuse', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    const asked: string[] = [];
    const { s, result } = await session([edit('e1', 'a.txt', 'alpha', 'beta')], async (request) => {
      asked.push(request.name);
      return { behavior: 'allow' };
    });
    await s.run('edit');
    expect(asked).toEqual([]);
    expect(result('e1')?.content).toMatch(/^edit_file refused/);
  });

  it("a subagent may edit what its parent read, unchanged; the parent then sees the subagent's edit as a change", async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
    await fs.writeFile(path.join(dir, 'b.txt'), 'bravo\n');
    const subagent = toolCall('s1', 'agent', { type: 'general', task: 'edit a.txt and b.txt', description: 'edit' });
    const { s, result, events } = await session([read('r1', 'a.txt'), subagent, edit('e1', 'a.txt', 'beta', 'gamma')], undefined, [
      { role: 'assistant', content: [
        { type: 'tool_use', id: 'c1', name: 'edit_file', input: { path: 'a.txt', old_string: 'alpha', new_string: 'beta' } },
        { type: 'tool_use', id: 'c2', name: 'edit_file', input: { path: 'b.txt', old_string: 'bravo', new_string: 'charlie' } },
      ] },
    ]);
    for (const prompt of ['read', 'delegate', 'edit']) await s.run(prompt);
    const inner = events.flatMap((e) => (e.type === 'subagent' && e.event.type === 'tool_result' ? [e.event] : []));
    expect(inner.find((r) => r.id === 'c1')?.is_error).toBe(false);
    // b.txt: nobody read it.
    expect(inner.find((r) => r.id === 'c2')?.content).toMatch(/^edit_file refused: b\.txt has not been read in this session/);
    expect(result('s1')?.is_error).toBe(false);
    expect(result('e1')?.content).toMatch(/^edit_file refused: a\.txt changed on disk since you last read it/);
    expect(await file('a.txt')).toBe('beta\n');
    expect(await file('b.txt')).toBe('bravo\n');
  });
});
