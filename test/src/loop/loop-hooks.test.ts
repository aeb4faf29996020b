import fs from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCompaction } from '../../../src/loop/query.js';
import { textOf, userText, type Message } from '../../../src/messages.js';
import { ofType } from '../../helpers/collect.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { hookedTurn, cairnHooks, claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import { assistantText, scriptedProvider } from '../../helpers/scripted-provider.js';
import type { HookRunner } from '../../../src/hooks/hook-types.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';

let dir: string;
// The real chain in bypassPermissions: these tests are about hooks, not approvals.
let open: PermissionChecker;
beforeEach(async () => {
  dir = await hookWorkspace();
  open = await allowEverything(dir);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function run(hooks: HookRunner, replies: Parameters<typeof scriptedProvider>[0], agentName?: string) {
  return hookedTurn(hooks, replies, { prompt: userText('deploy with password hunter2'), system: () => 's', tools: [], permissions: open, cwd: dir, ...(agentName ? { agentName } : {}) });
}
const lastUserText = (messages: readonly Message[]) => textOf(messages.filter((m) => m.role === 'user').at(-1) ?? { role: 'user', content: [] });

describe('UserPromptSubmit', () => {
  it("exit 2 (Claude Code's format) blocks the prompt: no model call, nothing in the history, the reason shown", async () => {
    const hook = await script(dir, 'no-secrets.sh', 'grep -q password && { echo "prompt contains a password" >&2; exit 2; }; exit 0');
    const { runner } = claudeHooks(dir, { UserPromptSubmit: [{ hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [assistantText('never')]);
    const all = await events;
    expect(provider.requests).toHaveLength(0);
    expect(ofType(all, 'terminal')[0]?.messages).toEqual([]);
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ hook_event: 'UserPromptSubmit', outcome: 'blocked', text: 'prompt contains a password' })]);
  });

  it('plain stdout and additionalContext are added to the prompt the model reads', async () => {
    const plain = await script(dir, 'branch.sh', 'echo "current branch: main"');
    const json = await script(dir, 'ctx.sh', `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"deploys need a ticket"}}'`);
    const { runner } = claudeHooks(dir, { UserPromptSubmit: [{ hooks: [command(plain), command(json)] }] });
    const { provider, events } = run(runner, [assistantText('ok')]);
    await events;
    const sent = lastUserText(provider.requests[0]?.messages ?? []);
    expect(sent).toContain('deploy with password hunter2');
    expect(sent).toContain('current branch: main');
    expect(sent).toContain('deploys need a ticket');
  });

  it('.hooks.json: exit 1 blocks, exit 2 injects stderr', async () => {
    const inject = await script(dir, 'inj.sh', 'echo "remember the changelog" >&2; exit 2');
    const { runner } = cairnHooks(dir, { UserPromptSubmit: [{ command: inject }] });
    const { provider, events } = run(runner, [assistantText('ok')]);
    await events;
    expect(lastUserText(provider.requests[0]?.messages ?? [])).toContain('remember the changelog');
    const block = await script(dir, 'blk.sh', 'echo "not now" >&2; exit 1');
    const blocked = run(cairnHooks(dir, { UserPromptSubmit: [{ command: block }] }).runner, [assistantText('never')]);
    await blocked.events;
    expect(blocked.provider.requests).toHaveLength(0);
  });
});

describe('Stop, SubagentStop, RoundEnd', () => {
  it('a Stop hook that blocks sends the model back with the reason; stop_hook_active tells it the second time', async () => {
    const seen = `${dir}/stop.jsonl`;
    const hook = await script(dir, 'stop.sh', `input=$(cat); printf '%s\\n' "$input" >> "${seen}"; echo "$input" | grep -q '"stop_hook_active":true' && exit 0; echo "run the tests first" >&2; exit 2`);
    const { runner } = claudeHooks(dir, { Stop: [{ hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [assistantText('done'), assistantText('tests pass, done')]);
    const all = await events;
    expect(provider.requests).toHaveLength(2);
    expect(lastUserText(provider.requests[1]?.messages ?? [])).toContain('run the tests first');
    expect(ofType(all, 'terminal')[0]).toMatchObject({ reason: 'completed', result: 'tests pass, done' });
    const lines = (await fs.readFile(seen, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l['hook_event_name'], l['stop_hook_active'], l['last_assistant_message']])).toEqual([['Stop', false, 'done'], ['Stop', true, 'tests pass, done']]);
  });

  it("a subagent's loop runs SubagentStop, not Stop", async () => {
    const hook = await script(dir, 'sub.sh', `cat > "${dir}/sub.json"`);
    const { runner } = claudeHooks(dir, { SubagentStop: [{ hooks: [command(hook)] }], Stop: [{ hooks: [command('touch stop-ran')] }] });
    await run(runner, [assistantText('report')], 'explore subagent').events;
    expect(JSON.parse(await fs.readFile(`${dir}/sub.json`, 'utf8'))).toMatchObject({ hook_event_name: 'SubagentStop', last_assistant_message: 'report' });
    await expect(fs.access(`${dir}/stop-ran`)).rejects.toThrow();
  });

  it('.hooks.json RoundEnd gets HOOK_EVENT=RoundEnd, an empty tool name and {stop_reason, last_assistant_text}', async () => {
    const hook = await script(dir, 'round.sh', `printf '%s|%s|%s' "$HOOK_EVENT" "$HOOK_TOOL_NAME" "$HOOK_TOOL_INPUT" > "${dir}/round.txt"`);
    const { runner } = cairnHooks(dir, { RoundEnd: [{ command: hook }] });
    await run(runner, [assistantText('all done')]).events;
    expect(await fs.readFile(`${dir}/round.txt`, 'utf8')).toBe('RoundEnd||{"stop_reason":"end_turn","last_assistant_text":"all done"}');
  });
});

describe('PreCompact', () => {
  it('exit 2 stops a compaction; the hook sees the trigger and the instructions', async () => {
    const hook = await script(dir, 'pc.sh', `cat > "${dir}/pc.json"; echo "not during a deploy" >&2; exit 2`);
    const { runner } = claudeHooks(dir, { PreCompact: [{ matcher: 'manual', hooks: [command(hook)] }] });
    const provider = scriptedProvider([assistantText('summary')]);
    const history: Message[] = [userText('a'), assistantText('b'), userText('c'), assistantText('d')];
    const gen = runCompaction(history, { provider, signal: new AbortController().signal, hooks: runner }, 'manual', 'keep the API notes');
    const events = [];
    let next = await gen.next();
    while (!next.done) {
      events.push(next.value);
      next = await gen.next();
    }
    expect(next.value).toBeUndefined();
    expect(provider.requests).toHaveLength(0);
    expect(JSON.parse(await fs.readFile(`${dir}/pc.json`, 'utf8'))).toMatchObject({ hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: 'keep the API notes' });
    expect(events.map((e) => e.type)).toEqual(['hook', 'notice']);
  });
});
