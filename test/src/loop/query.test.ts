import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { query, type QueryParams } from '../../../src/loop/query.js';
import { userText, type Message } from '../../../src/messages.js';
import { ProviderError } from '../../../src/providers/provider.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';
import { defineTool, type AnyTool } from '../../../src/tools/tool.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { collect, ofType } from '../../helpers/collect.js';
import { allowEverything, realPermissions } from '../../helpers/real-permissions.js';
import { waitFor } from '../../helpers/wait-for.js';
import { assistantText, scriptedProvider, toolCall, toolCalls } from '../../helpers/scripted-provider.js';

const pathSchema = z.object({ path: z.string() });

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

function slowReader(started: string[], gates: Map<string, Promise<void>>, finished: string[] = []): AnyTool {
  return defineTool({
    name: 'read_file', description: 'read', kind: 'read', inputSchema: pathSchema,
    effects: () => 'none' as const, isConcurrencySafe: () => true,
    async call(input) {
      started.push(input.path);
      await (gates.get(input.path) ?? Promise.resolve());
      finished.push(input.path);
      return { content: `contents of ${input.path}` };
    },
  });
}

const writer = defineTool({
  name: 'write_file', description: 'write', kind: 'edit', inputSchema: z.object({ path: z.string(), content: z.string() }),
  async call(input) { return { content: `wrote ${input.path}` }; },
});

// Tests whose point is not permissions run the real chain in bypassPermissions mode.
let open: PermissionChecker;
beforeAll(async () => {
  open = await allowEverything();
});

function params(overrides: Partial<QueryParams> & Pick<QueryParams, 'provider'>): QueryParams {
  return {
    messages: [], prompt: userText('go'), tools: [], permissions: open,
    system: () => 'system', cwd: '/tmp', signal: new AbortController().signal, ...overrides,
  };
}

function expectPaired(messages: Message[]): void {
  for (let i = 0; i < messages.length; i++) {
    const uses = messages[i]!.content.filter((b) => b.type === 'tool_use');
    if (uses.length === 0) continue;
    const next = messages[i + 1];
    const ids = next?.content.filter((b) => b.type === 'tool_result').map((b) => (b as { tool_use_id: string }).tool_use_id);
    expect(ids).toEqual(uses.map((u) => (u as { id: string }).id));
  }
}

describe('query', () => {
  it('streams a text answer and completes', async () => {
    const provider = scriptedProvider([assistantText('hello there')]);
    const events = await collect(query(params({ provider })));
    expect(events.map((e) => e.type)).toEqual(['user_prompt', 'turn_start', 'text_delta', 'assistant', 'terminal']);
    const end = ofType(events, 'terminal')[0]!;
    expect(end.reason).toBe('completed');
    expect(end.result).toBe('hello there');
    expect(end.messages).toHaveLength(2);
  });

  it('runs consecutive read-only calls together, keeps model order in history and completion order in events', async () => {
    const started: string[] = [];
    const finished: string[] = [];
    const a = gate();
    const b = gate();
    const tools = [slowReader(started, new Map([['a', a.promise], ['b', b.promise]]), finished), writer];
    const provider = scriptedProvider([
      toolCalls(['1', 'read_file', { path: 'a' }], ['2', 'read_file', { path: 'b' }], ['3', 'write_file', { path: 'c', content: 'x' }]),
      assistantText('done'),
    ]);
    const run = collect(query(params({ provider, tools })));
    // Both reads start before either finishes: they run in parallel.
    await waitFor(() => started.length === 2);
    b.open();
    await waitFor(() => finished.includes('b'));
    a.open();
    const events = await run;
    const starts = ofType(events, 'tool_start');
    expect(starts.map((s) => [s.id, s.parallel])).toEqual([['1', true], ['2', true], ['3', false]]);
    expect(starts[0]!.batch).toBe(starts[1]!.batch);
    expect(starts[2]!.batch).not.toBe(starts[0]!.batch);
    expect(ofType(events, 'tool_result').map((r) => r.id)).toEqual(['2', '1', '3']);
    const end = ofType(events, 'terminal')[0]!;
    expect(end.reason).toBe('completed');
    const results = end.messages[2]!.content;
    expect(results.map((r) => (r as { tool_use_id: string }).tool_use_id)).toEqual(['1', '2', '3']);
    expect(provider.requests[1]!.messages).toEqual(end.messages.slice(0, 3));
  });

  it('turns unknown tools, bad input and throwing tools into readable error results', async () => {
    const thrower = defineTool({ name: 'explode', description: '', kind: 'other', inputSchema: z.object({}), async call() { throw new Error('kaboom'); } });
    const provider = scriptedProvider([
      toolCalls(['1', 'nope', {}], ['2', 'write_file', { path: 3 }], ['3', 'explode', {}]),
      assistantText('ok'),
    ]);
    const events = await collect(query(params({ provider, tools: [writer, thrower] })));
    const results = ofType(events, 'tool_result');
    expect(results.every((r) => r.is_error)).toBe(true);
    expect(results[0]!.content).toMatch(/Unknown tool "nope".*write_file/);
    expect(results[1]!.content).toMatch(/Invalid input for write_file/);
    expect(results[1]!.content).toMatch(/path/);
    expect(results[2]!.content).toMatch(/kaboom/);
    expect(ofType(events, 'terminal')[0]!.reason).toBe('completed');
  });

  it('asks through the injected callback and sends a denial reason back to the model; nothing is written', async () => {
    const { permissions, dir } = await realPermissions();
    const provider = scriptedProvider([toolCall('1', 'write_file', { path: 'c', content: 'x' }), assistantText('ok')]);
    const asked: string[] = [];
    const ask = async (request: { reason: string }) => (asked.push(request.reason), { behavior: 'deny' as const, message: 'use d.txt instead' });
    const events = await collect(query(params({ provider, tools: [createWriteFileTool()], permissions, cwd: dir, ask })));
    expect(asked).toEqual(['needs your approval: no rule allows write_file "c"']);
    expect(ofType(events, 'permission_request')[0]).toMatchObject({ id: '1', suggestions: ['write_file(./**)'] });
    expect(ofType(events, 'permission_denied')[0]!.reason).toMatch(/use d.txt instead/);
    const sent = provider.requests[1]!.messages[2]!.content[0];
    expect(sent).toMatchObject({ type: 'tool_result', is_error: true });
    expect(JSON.stringify(sent)).toMatch(/use d.txt instead/);
    await expect(readFile(join(dir, 'c'), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('remembers "always allow this session" answers: the next write of the file is not asked, and nothing is saved', async () => {
    const { permissions, dir, localSettings } = await realPermissions();
    const provider = scriptedProvider([
      toolCall('1', 'write_file', { path: 'c', content: 'x' }),
      toolCall('2', 'write_file', { path: 'c', content: 'y' }),
      assistantText('ok'),
    ]);
    const asked: string[] = [];
    const ask = async (request: { suggestions: string[] }) => (asked.push(...request.suggestions), { behavior: 'allow' as const, remember: 'session' as const });
    const events = await collect(query(params({ provider, tools: [createWriteFileTool()], permissions, cwd: dir, ask })));
    expect(asked).toEqual(['write_file(./**)']);
    expect(ofType(events, 'tool_result').map((r) => r.is_error ?? false)).toEqual([false, false]);
    expect(await readFile(join(dir, 'c'), 'utf8')).toBe('y');
    expect(permissions.rules().allow).toEqual(['write_file(./**)']);
    await expect(readFile(localSettings, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
    // A later session in the same workspace asks again.
    const later = await realPermissions({ workspace: dir });
    expect((await later.permissions.check(createWriteFileTool(), { path: 'c', content: 'z' })).behavior).toBe('ask');
  });

  it('saves "always allow in this project" answers to .cairn/settings.local.json, which a later session reads', async () => {
    const { permissions, dir, localSettings } = await realPermissions();
    const provider = scriptedProvider([toolCall('1', 'write_file', { path: 'c', content: 'x' }), assistantText('ok')]);
    const ask = async () => ({ behavior: 'allow' as const, remember: 'project' as const });
    await collect(query(params({ provider, tools: [createWriteFileTool()], permissions, cwd: dir, ask })));
    expect(await readFile(join(dir, 'c'), 'utf8')).toBe('x');
    expect(JSON.parse(await readFile(localSettings, 'utf8'))).toEqual({ permissions: { allow: ['write_file(./**)'] } });
    const later = await realPermissions({ workspace: dir });
    expect(await later.permissions.check(createWriteFileTool(), { path: 'c', content: 'z' })).toMatchObject({ behavior: 'allow', reason: 'allowed by rule write_file(./**)' });
  });

  it('denies with a reason when nobody can be asked, and suggests plan mode after three denials', async () => {
    const { permissions, dir } = await realPermissions();
    const provider = scriptedProvider([
      toolCalls(['1', 'write_file', { path: 'a', content: '' }], ['2', 'write_file', { path: 'b', content: '' }], ['3', 'write_file', { path: 'c', content: '' }]),
      assistantText('ok'),
    ]);
    const events = await collect(query(params({ provider, tools: [createWriteFileTool()], permissions, cwd: dir })));
    const denied = ofType(events, 'permission_denied');
    expect(denied).toHaveLength(3);
    expect(denied[0]!.reason).toMatch(/no one can be asked.*write_file/);
    expect(ofType(events, 'notice').some((n) => /plan mode/.test(n.message))).toBe(true);
    for (const file of ['a', 'b', 'c']) await expect(readFile(join(dir, file), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('aborting while tools run interrupts them and leaves every tool_use answered', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const never = new Promise<void>(() => {});
    const reader = defineTool({
      name: 'read_file', description: '', kind: 'read', inputSchema: pathSchema, isConcurrencySafe: () => true,
      async call(input, ctx) {
        started.push(input.path);
        await Promise.race([never, new Promise((r) => ctx.signal.addEventListener('abort', r))]);
        return { content: 'Interrupted', isError: true };
      },
    });
    const provider = scriptedProvider([toolCalls(['1', 'read_file', { path: 'a' }], ['2', 'read_file', { path: 'b' }]), toolCall('3', 'write_file', { path: 'c', content: '' })]);
    const run = collect(query(params({ provider, tools: [reader, writer], signal: controller.signal })));
    await waitFor(() => started.length === 2);
    controller.abort();
    const events = await run;
    const end = ofType(events, 'terminal')[0]!;
    expect(end.reason).toBe('aborted');
    expectPaired(end.messages);
    expect(provider.requests).toHaveLength(1);
  });

  it('aborting mid-stream ends with aborted and no half-written assistant message', async () => {
    const controller = new AbortController();
    const provider = {
      name: 'slow', model: 'm',
      async *stream() {
        yield { type: 'text_delta' as const, text: 'partial' };
        controller.abort();
        throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      },
    };
    const events = await collect(query(params({ provider, signal: controller.signal })));
    const end = ofType(events, 'terminal')[0]!;
    expect(end.reason).toBe('aborted');
    expect(end.messages.filter((m) => m.role === 'assistant')).toHaveLength(0);
  });

  it('a provider failure ends the turn with an error terminal carrying the message', async () => {
    const provider = scriptedProvider([new ProviderError('invalid API key: check ANTHROPIC_API_KEY', 401)]);
    const events = await collect(query(params({ provider })));
    const end = ofType(events, 'terminal')[0]!;
    expect(end.reason).toBe('error');
    expect(end.error).toMatch(/ANTHROPIC_API_KEY/);
    expect(end.messages).toHaveLength(1);
  });

  it('stops at max_turns', async () => {
    const loop = () => toolCall(`t${Math.random()}`, 'write_file', { path: 'x', content: '' });
    const provider = scriptedProvider([loop, loop, loop, loop]);
    const events = await collect(query(params({ provider, tools: [writer], maxTurns: 2 })));
    const end = ofType(events, 'terminal')[0]!;
    expect(end.reason).toBe('max_turns');
    expect(provider.requests).toHaveLength(2);
    expectPaired(end.messages);
  });

  it('repairs a broken history before calling the model and reports it', async () => {
    const provider = scriptedProvider([assistantText('ok')]);
    const broken: Message[] = [userText('earlier'), toolCall('x', 'write_file', { path: 'a', content: '' })];
    const events = await collect(query(params({ provider, messages: broken })));
    expect(ofType(events, 'notice').some((n) => /placeholder/.test(n.message))).toBe(true);
    expectPaired(provider.requests[0]!.messages);
  });

  it('decides from the content, not stop_reason', async () => {
    const provider = {
      name: 'liar', model: 'm', calls: 0,
      async *stream() {
        this.calls++;
        const message: Message = this.calls === 1
          ? { role: 'assistant', content: [{ type: 'tool_use', id: '1', name: 'write_file', input: { path: 'a', content: '' } }] }
          : { role: 'assistant', content: [{ type: 'text', text: 'fin' }] };
        yield { type: 'message' as const, message, stopReason: 'end_turn' };
      },
    };
    const events = await collect(query(params({ provider, tools: [writer] })));
    expect(ofType(events, 'tool_result')).toHaveLength(1);
    expect(ofType(events, 'terminal')[0]!.result).toBe('fin');
  });
});


describe('query: invalid tool arguments', () => {
  it('shows the model the raw text it sent when the arguments were not JSON', async () => {
    const provider = scriptedProvider([toolCall('1', 'write_file', { _raw_arguments: '{"path": "c.txt", "content": ' }), assistantText('ok')]);
    const events = await collect(query(params({ provider, tools: [writer] })));
    const result = ofType(events, 'tool_result')[0]!;
    expect(result.is_error).toBe(true);
    expect(result.content).toContain('{"path": "c.txt", "content": ');
    expect(result.content).toMatch(/not a valid JSON object/);
  });
});
