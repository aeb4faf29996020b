import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../../src/providers/provider.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { loadSession } from '../../../src/session/session-loader.js';
import { SessionWriter } from '../../../src/session/session-writer.js';
import { AbortError } from '../../../src/util/abort.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { waitFor } from '../../helpers/wait-for.js';

/**
 * A provider whose first call streams a little and then waits until it is aborted (a model still
 * writing); later calls answer at once. Every request is recorded.
 */
function holdingProvider(): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    name: 'holding',
    model: 'holding-1',
    requests,
    async *stream(req): AsyncGenerator<ModelStreamEvent> {
      requests.push(req);
      if (requests.length === 1) {
        yield { type: 'text_delta', text: 'working on it' };
        await new Promise<void>((resolve) => req.signal.addEventListener('abort', () => resolve(), { once: true }));
        yield { type: 'usage', usage: { input_tokens: 50, output_tokens: 4 } };
        throw new AbortError();
      }
      const text = `answer ${requests.length}`;
      yield { type: 'usage', usage: { input_tokens: 10, output_tokens: 2 } };
      yield { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }] }, stopReason: 'end_turn' };
    },
  };
}

// The real chain in bypassPermissions: these tests are not about approvals.
let open: PermissionChecker;
beforeEach(async () => {
  open = await allowEverything();
});

function session(provider: ModelProvider, extra: Partial<ConstructorParameters<typeof AgentSession>[0]> = {}) {
  return new AgentSession({ provider, tools: [], permissions: open, cwd: '/tmp', system: () => 's', interactive: true, ...extra });
}

const userTexts = (req: ModelRequest): string[] => req.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])));

describe('AgentSession: conversation control', () => {
  it('clear() while a turn runs: the turn stops, its late events are not heard, and the next request carries no earlier message', async () => {
    const provider = holdingProvider();
    const s = session(provider);
    const events: AgentEvent[] = [];
    s.subscribe((e) => events.push(e));
    const first = s.run('the old task');
    await waitFor(() => events.some((e) => e.type === 'text_delta'));
    s.clear();
    const afterClear = events.length;
    expect(events[afterClear - 1]).toEqual({ type: 'clear' });
    await first;
    // The old turn's terminal (and anything else but its usage) stays out of the new conversation.
    expect(events.slice(afterClear).map((e) => e.type)).toEqual(['usage']);
    expect(s.messages).toEqual([]);

    await s.run('the new task');
    expect(userTexts(provider.requests[1]!)).toEqual(['the new task']);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('interrupt() stops the turn and hands back the queued prompts; nothing runs by itself', async () => {
    const provider = holdingProvider();
    const s = session(provider);
    const prompts: string[] = [];
    s.subscribe((e) => {
      if (e.type === 'user_prompt') prompts.push(e.text);
    });
    const first = s.run('long task');
    await waitFor(() => provider.requests.length === 1);
    s.submit('second');
    s.submit('third');
    expect(s.unqueueLast()).toEqual({ text: 'third' });
    s.submit('third, edited');
    expect(s.interrupt()).toEqual([{ text: 'second' }, { text: 'third, edited' }]);
    expect((await first).reason).toBe('aborted');
    expect(s.busy).toBe(false);
    expect(s.queued).toEqual([]);
    expect(prompts).toEqual(['long task']);
    expect(provider.requests).toHaveLength(1);
  });

  it('session_start names the session, so headless output can', () => {
    expect(session(holdingProvider(), { sessionId: 'abc-123' }).sessionStart()).toMatchObject({ type: 'session_start', session_id: 'abc-123' });
    expect(session(holdingProvider()).sessionStart()).not.toHaveProperty('session_id');
  });

  it('a session file with a clear in it resumes with only what came after', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-clear-'));
    const file = path.join(dir, 's.jsonl');
    const provider = holdingProvider();
    const s = session(provider);
    const writer = SessionWriter.create(file, { id: 's', cwd: dir, created: '2026-11-30T00:00:00.000Z' });
    s.subscribe((e) => writer.append(e));
    const first = s.run('the old task');
    await waitFor(() => provider.requests.length === 1);
    s.clear();
    await first;
    await s.run('the new task');
    writer.close();
    const loaded = await loadSession(file);
    expect(loaded.messages.map((m) => [m.role, m.content[0]!.type === 'text' ? m.content[0]!.text : ''])).toEqual([
      ['user', 'the new task'],
      ['assistant', 'answer 2'],
    ]);
    expect(loaded.warnings).toEqual([]);
  });
});

describe('work outside a turn', () => {
  it('Esc (interrupt) also stops what was registered with onInterrupt, until unregistered', () => {
    const s = session(holdingProvider());
    let stopped = 0;
    const off = s.onInterrupt(() => stopped++);
    s.interrupt();
    expect(stopped).toBe(1);
    off();
    s.interrupt();
    expect(stopped).toBe(1);
  });
});

