import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { rebuildMessages } from '../../../src/session/session-loader.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import { assistantText, scriptedProvider } from '../../helpers/scripted-provider.js';

// A prompt is told (and recorded) before its UserPromptSubmit hooks run; one they block is taken
// back out of the conversation, live and when the session file is read again.
let dir: string;
beforeEach(async () => {
  dir = await hookWorkspace();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('a prompt a UserPromptSubmit hook blocks', () => {
  it('is told before the hook runs, then leaves the history and the rewind points, live and after a reload', async () => {
    const hook = await script(dir, 'no-secrets.sh', 'grep -q password && { echo "prompt contains a password" >&2; exit 2; }; exit 0');
    const { runner } = claudeHooks(dir, { UserPromptSubmit: [{ hooks: [command(hook)] }] });
    const provider = scriptedProvider([assistantText('one'), assistantText('two')]);
    const session = new AgentSession({ provider, tools: [], permissions: await allowEverything(dir), cwd: dir, system: () => 's', interactive: true, hooks: runner });
    const events: AgentEvent[] = [];
    session.subscribe((e) => events.push(e));

    await session.run('hello');
    const blocked = await session.run('deploy with password hunter2');
    expect(blocked.reason).toBe('completed');
    const told = events.findIndex((e) => e.type === 'user_prompt' && e.text.includes('password'));
    const hookSaid = events.findIndex((e) => e.type === 'hook' && e.outcome === 'blocked');
    expect(told).toBeGreaterThan(-1);
    expect(hookSaid).toBeGreaterThan(told);
    await session.run('and now?');
    expect(provider.requests).toHaveLength(2);
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);

    // The file holds the blocked prompt and the block after it: read again, the same conversation.
    const reloaded = rebuildMessages(events);
    expect(reloaded.messages).toEqual(session.messages);
    expect(reloaded.prompts.marks.map((m) => [m.id, m.text])).toEqual([
      [0, 'hello'],
      [1, 'and now?'],
    ]);
    expect(reloaded.prompts.count).toBe(2);
  });
});
