// A custom command's `model:` frontmatter runs that prompt's turn on that model; the session keeps its own.
// Checked on the wire: the model in each request the loopback Anthropic server receives.
import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/bootstrap.js';
import type { AgentEvent } from '../../../src/events.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import type { AnthropicRequestBody, ScriptedServer } from '../../helpers/anthropic-server.js';

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(closeAnthropicRuntimes);

async function start(files: Record<string, string>): Promise<Runtime> {
  const started = await anthropicRuntime({ files });
  server = started.server;
  return started.runtime;
}

const sent = (): string[] => (server?.requests ?? []).map((r) => r.body.model);

async function runSlash(rt: Runtime, line: string) {
  const prepared = await rt.skills.prepare(line);
  return rt.session.run(prepared?.prompt ?? line);
}

describe("a custom command's model", () => {
  it('model: haiku runs that turn on the haiku model, says so, and the next prompt is back on the session model', async () => {
    const rt = await start({ '.claude/commands/quick.md': '---\ndescription: Quick answer\nmodel: haiku\n---\nAnswer briefly: $ARGUMENTS\n' });
    const events: AgentEvent[] = [];
    rt.session.subscribe((e) => events.push(e));
    await runSlash(rt, '/quick what is 2+2');
    await rt.session.run('and now in full');
    expect(sent()).toEqual(['claude-haiku-5-5', 'claude-sonnet-5-5']);
    expect(rt.session.model).toBe('claude-sonnet-5-5');
    expect(events).toContainEqual(expect.objectContaining({ type: 'notice', message: 'This turn runs on claude-haiku-5-5; the session stays on claude-sonnet-5-5.' }));
  });

  it('a full model id is used as written; a command without model keeps the session model', async () => {
    const rt = await start({
      '.claude/commands/pinned.md': '---\nmodel: claude-opus-4-1-20250805\n---\nDo it.\n',
      '.claude/commands/plain.md': 'Do it plainly.\n',
    });
    await runSlash(rt, '/pinned');
    await runSlash(rt, '/plain');
    expect(sent()).toEqual(['claude-opus-4-1-20250805', 'claude-sonnet-5-5']);
  });

  it('typing the same text as a prepared prompt without the command does not borrow its model', async () => {
    const rt = await start({ '.claude/commands/quick.md': '---\nmodel: haiku\n---\nHi\n' });
    const prepared = await rt.skills.prepare('/quick');
    await rt.session.run(prepared?.prompt ?? '');
    await rt.session.run(prepared?.prompt ?? '');
    expect(sent()).toEqual(['claude-haiku-5-5', 'claude-sonnet-5-5']);
  });
});
