import { describe, expect, it } from 'vitest';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { rebuildMessages } from '../../../src/session/session-loader.js';
import { clipOutput, runUserShell, shellCommandMessage } from '../../../src/session/user-shell.js';
import { allowEverything } from '../../helpers/real-permissions.js';

describe('runUserShell', () => {
  it('runs through $SHELL in the given folder, stdout and stderr together, with the exit code', async () => {
    const r = await runUserShell('pwd; echo oops >&2; exit 4', { cwd: '/tmp', env: { ...process.env, SHELL: '/bin/sh' }, signal: new AbortController().signal });
    expect(r).toEqual({ output: '/tmp\noops\n', exitCode: 4 });
  });

  it('an abort stops the whole command (a pipeline too) and says so', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const run = runUserShell('sleep 30 | cat', { cwd: '/tmp', env: process.env, signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const r = await run;
    expect(r.problem).toBe('interrupted');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a missing shell is a result naming it, not a throw', async () => {
    const r = await runUserShell('true', { cwd: '/tmp', env: { SHELL: '/no/such/shell' }, signal: new AbortController().signal });
    expect(r.problem).toMatch(/could not run \/no\/such\/shell/);
  });
});

describe('a ! command in the conversation', () => {
  it("runs with the session's environment (its settings env under cairn serve), not process.env", async () => {
    expect(process.env['CAIRN_SESSION_ONLY']).toBeUndefined();
    const session = new AgentSession({
      provider: createOfflineProvider({ model: 'm' }),
      tools: [],
      permissions: await allowEverything(),
      cwd: '/tmp',
      env: { ...process.env, SHELL: '/bin/sh', CAIRN_SESSION_ONLY: 'yes' },
      system: () => 's',
      interactive: false,
    });
    const events: AgentEvent[] = [];
    session.subscribe((e) => events.push(e));
    await session.runShell('echo "saw=[$CAIRN_SESSION_ONLY]"');
    const done = events.find((e): e is EventOf<'shell_command'> => e.type === 'shell_command' && e.status === 'done');
    expect(done?.output).toBe('saw=[yes]\n');
  });

  const done: EventOf<'shell_command'> = { type: 'shell_command', id: 's1', command: 'git status', status: 'done', output: 'clean\n', exit_code: 0 };

  it('is rebuilt from the session file as the user message the model saw (resume, -c)', () => {
    const { messages } = rebuildMessages([{ type: 'user_prompt', text: 'hi' }, { type: 'shell_command', id: 's1', command: 'git status', status: 'running' }, done]);
    expect(messages).toEqual([messages[0], shellCommandMessage(done)]);
    expect(JSON.stringify(messages[1])).toContain('<bash-input>git status</bash-input>');
  });

  it('a long output reaches the model as head and tail', () => {
    const long = `${'a'.repeat(40_000)}${'z'.repeat(40_000)}`;
    const clipped = clipOutput(long);
    expect(clipped.length).toBeLessThan(31_000);
    expect(clipped.startsWith('aaa')).toBe(true);
    expect(clipped.endsWith('zzz')).toBe(true);
    expect(clipped).toContain('50000 characters left out');
  });
});
