import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { waitFor } from '../../helpers/wait-for.js';

// The real chain in bypassPermissions: these tests are not about approvals.
let open: PermissionChecker;
beforeEach(async () => {
  open = await allowEverything();
});

function session(withFactory: boolean) {
  return new AgentSession({
    provider: createOfflineProvider({ model: 'first' }),
    tools: [],
    permissions: open,
    cwd: '/tmp',
    system: () => 's',
    interactive: false,
    ...(withFactory ? { providerFor: (model: string) => createOfflineProvider({ model }) } : {}),
  });
}

describe('AgentSession', () => {
  it('/model switching: announces the new model and uses it from the next turn', async () => {
    const s = session(true);
    const events: AgentEvent[] = [];
    s.subscribe((e) => events.push(e));
    expect(s.switchModel('second')).toBe(true);
    expect(events[0]).toMatchObject({ type: 'session_start', model: 'second' });
    await s.run('hello');
    expect(events.find((e) => e.type === 'usage')).toMatchObject({ model: 'second' });
    expect(session(false).switchModel('x')).toBe(false);
  });

  it('prompts submitted while a turn runs are queued and run in order', async () => {
    const s = session(false);
    const prompts: string[] = [];
    s.subscribe((e) => {
      if (e.type === 'user_prompt') prompts.push(e.text);
    });
    const first = s.run('one');
    s.submit('two');
    s.submit('three');
    expect(s.queued).toEqual(['two', 'three']);
    await first;
    await waitFor(() => !s.busy && s.queued.length === 0, { message: 'the queue to drain' });
    expect(prompts).toEqual(['one', 'two', 'three']);
    expect(s.messages.filter((m) => m.role === 'user')).toHaveLength(3);
  });
});
