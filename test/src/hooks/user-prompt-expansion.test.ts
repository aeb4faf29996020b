// UserPromptExpansion: a real hook script in the user's settings sees `/name args` expanded (Claude
// Code's stdin fields), can add context the model receives with the prompt, or block the expansion
// (exit 2, decision: "block"), and then nothing reaches the model. Checked on the wire against a
// loopback Anthropic server.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/bootstrap.js';
import type { AgentEvent } from '../../../src/events.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import type { AnthropicRequestBody, ScriptedServer } from '../../helpers/anthropic-server.js';

afterEach(closeAnthropicRuntimes);

const COMMANDS = {
  '.claude/commands/review-it.md': '---\ndescription: Review a file\n---\nReview the file $ARGUMENTS carefully.\n',
  '.claude/commands/other.md': 'Say hello.\n',
};

async function start(hookBody: string, matcher = 'review-it'): Promise<{ rt: Runtime; server: ScriptedServer<AnthropicRequestBody>; log: string; events: AgentEvent[] }> {
  let log = '';
  const { runtime, server } = await anthropicRuntime({
    files: COMMANDS,
    setUp: async ({ dir, home }) => {
      log = path.join(dir, 'stdin.log');
      const hook = path.join(dir, 'expansion-hook.sh');
      await fs.writeFile(hook, `#!/bin/sh\ncat >> "${log}"\necho >> "${log}"\n${hookBody}\n`, { mode: 0o755 });
      const hooks = { UserPromptExpansion: [{ matcher, hooks: [{ type: 'command', command: hook }] }] };
      await fs.writeFile(path.join(home, 'settings.json'), JSON.stringify({ hooks }));
    },
  });
  const events: AgentEvent[] = [];
  runtime.session.subscribe((e) => events.push(e));
  return { rt: runtime, server, log, events };
}

const stdinLines = async (log: string): Promise<Record<string, unknown>[]> =>
  (await fs.readFile(log, 'utf8').catch(() => '')).split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Record<string, unknown>);

const wire = (server: ScriptedServer<AnthropicRequestBody>): string => JSON.stringify(server.requests.map((r) => r.body.messages));

describe('UserPromptExpansion hooks', () => {
  it("get Claude Code's fields and add their additionalContext to the prompt the model receives; another command does not match", async () => {
    const { rt, server, log } = await start(`echo '{"hookSpecificOutput":{"hookEventName":"UserPromptExpansion","additionalContext":"CHECKLIST-42: look for secrets"}}'`);
    const prepared = await rt.skills.prepare('/review-it src/a.ts');
    expect(prepared?.blocked).toBeUndefined();
    await rt.session.run(prepared?.prompt ?? '');
    const [input, ...more] = await stdinLines(log);
    expect(more).toEqual([]);
    expect(input).toMatchObject({
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'review-it',
      command_args: 'src/a.ts',
      command_source: 'skill',
      session_id: rt.sessionId,
    });
    expect(String(input?.['prompt'])).toContain('Review the file src/a.ts carefully.');
    expect(wire(server)).toContain('CHECKLIST-42: look for secrets');
    expect(wire(server)).toContain('Review the file src/a.ts carefully.');

    const other = await rt.skills.prepare('/other');
    await rt.session.run(other?.prompt ?? '');
    expect(await stdinLines(log)).toHaveLength(1);
    expect(JSON.stringify(server.requests.at(-1)?.body.messages.at(-1))).not.toContain('CHECKLIST-42');
  });

  it('plain stdout on exit 0 is context too', async () => {
    const { rt, server } = await start('echo "PLAIN-CONTEXT-7"');
    const prepared = await rt.skills.prepare('/review-it x');
    await rt.session.run(prepared?.prompt ?? '');
    expect(wire(server)).toContain('PLAIN-CONTEXT-7');
  });

  it('exit 2 blocks the expansion with its stderr: the user is told, the model gets nothing', async () => {
    const { rt, server, events } = await start('echo "no reviews on Fridays" >&2; exit 2', '*');
    const prepared = await rt.skills.prepare('/review-it x');
    expect(prepared?.blocked).toMatch(/^\/review-it was blocked by a UserPromptExpansion hook \(.*settings\.json\): no reviews on Fridays$/);
    expect(prepared?.prompt).toBe('');
    expect(events).toContainEqual(expect.objectContaining({ type: 'hook', hook_event: 'UserPromptExpansion', outcome: 'blocked', text: 'no reviews on Fridays' }));
    expect(server.requests).toHaveLength(0);
  });

  it('decision: "block" with a reason blocks it too', async () => {
    const { rt } = await start(`echo '{"decision":"block","reason":"needs a PR number"}'`);
    expect((await rt.skills.prepare('/review-it'))?.blocked).toContain('needs a PR number');
    // A command the matcher does not name is not blocked.
    expect((await rt.skills.prepare('/other'))?.blocked).toBeUndefined();
  });
});
