// One prompt's own model (a custom command's `model:`): used for that turn; a model cairn cannot
// make a provider for leaves the turn on the session's model, said as a warning, and the turn still runs.
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import type { ModelProvider } from '../../../src/providers/provider.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { allowEverything } from '../../helpers/real-permissions.js';

// The real chain in bypassPermissions: these tests are not about approvals.
let open: PermissionChecker;
beforeEach(async () => {
  open = await allowEverything();
});

function recording(model: string, seen: string[]): ModelProvider {
  const inner = createOfflineProvider({ model });
  return { ...inner, name: inner.name, model, stream: (req) => (seen.push(req.model), inner.stream(req)) };
}

function session(seen: string[], providerFor: (model: string) => ModelProvider) {
  return new AgentSession({
    provider: recording('session-model', seen),
    tools: [],
    permissions: open,
    cwd: '/tmp',
    system: () => 's',
    interactive: false,
    providerFor,
    modelForPrompt: (text) => (text.startsWith('/quick') ? 'quick-model' : undefined),
  });
}

describe('a model for one prompt', () => {
  it('runs that turn on it; the next turn is back on the session model', async () => {
    const seen: string[] = [];
    const s = session(seen, (m) => recording(m, seen));
    await s.run('/quick hello');
    await s.run('hello');
    expect(seen).toEqual(['quick-model', 'session-model']);
    expect(s.model).toBe('session-model');
  });

  it('a model with no provider: the turn runs on the session model and the user is told why', async () => {
    const seen: string[] = [];
    const s = session(seen, () => {
      throw new Error('no provider knows quick-model');
    });
    const events: AgentEvent[] = [];
    s.subscribe((e) => events.push(e));
    const terminal = await s.run('/quick hello');
    expect(terminal.reason).toBe('completed');
    expect(seen).toEqual(['session-model']);
    expect(events).toContainEqual(expect.objectContaining({ type: 'notice', level: 'warning', message: expect.stringMatching(/stays on session-model: cannot use the model quick-model: no provider knows quick-model/) }));
  });
});
