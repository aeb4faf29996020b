import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../../../src/events.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../../src/providers/provider.js';
import { StartingSession } from '../../../src/session/starting-session.js';
import { defineTool, type AnyTool } from '../../../src/tools/tool.js';
import { allowEverything } from '../../helpers/real-permissions.js';

function recordingProvider(): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'recording',
    model: 'recording-1',
    requests,
    async *stream(req): AsyncGenerator<ModelStreamEvent> {
      requests.push(req);
      yield { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text: `answer ${requests.length}` }] }, stopReason: 'end_turn' };
    },
  };
}

const tool = (name: string): AnyTool => defineTool({ name, description: name, inputSchema: z.object({}), kind: 'read', call: async () => ({ content: 'ok' }) });

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('StartingSession', () => {
  it('prompts sent before start-up has finished wait for it, then run in the order sent with what it set up', async () => {
    const provider = recordingProvider();
    const tools: AnyTool[] = [];
    const gate = deferred();
    let finishes = 0;
    const session = new StartingSession({ provider, tools, permissions: await allowEverything(), cwd: '/tmp', system: () => 's', interactive: true }, async () => {
      finishes++;
      await gate.promise;
      tools.push(tool('read_file'));
    });
    const events: AgentEvent[] = [];
    session.subscribe((e) => events.push(e));
    expect(session.starting).toBe(true);
    session.submit('first');
    session.submit('second');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // Nothing has reached the model, and nothing was dropped: the first prompt is told (and so
    // recorded) at once, the second waits behind it.
    expect(provider.requests).toEqual([]);
    expect(events).toEqual([{ type: 'user_prompt', text: 'first' }]);
    expect(session.queued).toEqual(['second']);
    gate.resolve();
    await session.finishStartup();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await session.run('third');
    expect(finishes).toBe(1);
    expect(session.starting).toBe(false);
    expect(events.filter((e) => e.type === 'user_prompt').map((e) => (e.type === 'user_prompt' ? e.text : ''))).toEqual(['first', 'second', 'third']);
    expect(provider.requests.map((r) => r.tools.map((t) => t.name))).toEqual([['read_file'], ['read_file'], ['read_file']]);
  });

  it('finishStartup() starts it without a turn; a turn after that does not wait', async () => {
    const provider = recordingProvider();
    let finishes = 0;
    const session = new StartingSession({ provider, tools: [], permissions: await allowEverything(), cwd: '/tmp', system: () => 's', interactive: true }, async () => {
      finishes++;
    });
    await session.finishStartup();
    await session.finishStartup();
    expect(finishes).toBe(1);
    const terminal = await session.run('hi');
    expect(terminal.reason).toBe('completed');
  });

  it('a start-up that fails ends each waiting turn with its error, told as a terminal event', async () => {
    const provider = recordingProvider();
    const session = new StartingSession({ provider, tools: [], permissions: await allowEverything(), cwd: '/tmp', system: () => 's', interactive: true }, () => Promise.reject(new Error('the tools did not load')));
    const events: AgentEvent[] = [];
    session.subscribe((e) => events.push(e));
    const terminal = await session.run('hi');
    expect(terminal).toMatchObject({ type: 'terminal', reason: 'error', error: 'cairn did not finish starting: the tools did not load' });
    expect(events).toEqual([{ type: 'user_prompt', text: 'hi' }, terminal]);
    expect(provider.requests).toEqual([]);
    await expect(session.finishStartup()).rejects.toThrow('the tools did not load');
  });
});
