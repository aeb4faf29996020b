// The events added for Claude Code parity (SubagentStart, SubagentStop's agent fields, StopFailure,
// PostCompact) and the JSON output fields every event shares (continue, stopReason, systemMessage,
// suppressOutput), each with a real hook script.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import type { AgentEvent } from '../../../src/events.js';
import { runCompaction, type QueryParams } from '../../../src/loop/query.js';
import type { Message } from '../../../src/messages.js';
import { userText } from '../../../src/messages.js';
import { ProviderError } from '../../../src/providers/provider.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import type { HookRunner } from '../../../src/hooks/hook-types.js';
import type { PermissionChecker } from '../../../src/permissions/types.js';
import { collect, ofType } from '../../helpers/collect.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { hookedTurn, claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

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

function run(hooks: HookRunner, replies: Parameters<typeof scriptedProvider>[0], extra: Partial<QueryParams> = {}) {
  return hookedTurn(hooks, replies, { tools: [createWriteFileTool(), createReadFileTool()], permissions: open, cwd: dir, ...extra });
}

const lines = async (file: string) => (await fs.readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
const sentText = (req: { messages: Message[] }) => JSON.stringify(req.messages);

describe('SubagentStart and SubagentStop', () => {
  it('SubagentStart sees the agent type and id, its matcher is the agent type, and its additionalContext reaches the subagent; SubagentStop sees agent_type', async () => {
    const log = path.join(dir, 'log.jsonl');
    const start = await script(dir, 'start.sh', `cat >> "${log}"; echo >> "${log}"\necho '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"the build uses pnpm"}}'`);
    const stop = await script(dir, 'stop.sh', `cat >> "${log}"; echo >> "${log}"`);
    const other = await script(dir, 'other.sh', `echo other >> "${log}.other"`);
    const { runner } = claudeHooks(dir, {
      SubagentStart: [{ matcher: 'general', hooks: [command(start)] }, { matcher: 'Explore', hooks: [command(other)] }],
      SubagentStop: [{ hooks: [command(stop)] }],
    });
    const provider = scriptedProvider([assistantText('done: pnpm noted')]);
    const tool = createAgentTool({
      definitions: () => BUILTIN_AGENTS, tools: () => [], permissions: () => open, environment: () => 'env', cwd: dir, provider: () => provider,
    });
    const events: AgentEvent[] = [];
    const result = await tool.call({ type: 'general', task: 'look around', description: 'look' }, { cwd: dir, signal: new AbortController().signal, toolUseId: 'parent_1', emit: (e) => events.push(e), hooks: runner });
    expect(result.isError).toBeFalsy();
    const seen = await lines(log);
    expect(seen[0]).toMatchObject({ hook_event_name: 'SubagentStart', agent_type: 'general', agent_id: 'parent_1' });
    expect(seen[1]).toMatchObject({ hook_event_name: 'SubagentStop', agent_type: 'general', last_assistant_message: 'done: pnpm noted' });
    expect(sentText(provider.requests[0] as { messages: Message[] })).toContain('the build uses pnpm');
    await expect(fs.access(`${log}.other`)).rejects.toThrow();
  });
});

describe('StopFailure', () => {
  it('runs when the model call fails, with the error kind (its matcher) and the details', async () => {
    const seen = path.join(dir, 'seen.json');
    const hook = await script(dir, 'fail.sh', `cat > "${seen}"`);
    const { runner } = claudeHooks(dir, { StopFailure: [{ matcher: 'rate_limit', hooks: [command(hook)] }] });
    const all = await run(runner, [new ProviderError('429 rate limit exceeded', 429)]).events;
    expect(ofType(all, 'terminal')[0]).toMatchObject({ reason: 'error' });
    expect(JSON.parse(await fs.readFile(seen, 'utf8'))).toMatchObject({ hook_event_name: 'StopFailure', error: 'rate_limit', error_details: expect.stringContaining('429') });
  });
});

describe('PostCompact', () => {
  it('runs after a compaction with the trigger and the summary', async () => {
    const seen = path.join(dir, 'seen.json');
    const hook = await script(dir, 'post-compact.sh', `cat > "${seen}"`);
    const { runner } = claudeHooks(dir, { PostCompact: [{ matcher: 'manual', hooks: [command(hook)] }] });
    const long = 'x'.repeat(2000);
    const history: Message[] = [userText(`first ${long}`), { role: 'assistant', content: [{ type: 'text', text: `reply ${long}` }] }, userText(`second ${long}`), { role: 'assistant', content: [{ type: 'text', text: `reply two ${long}` }] }];
    const provider = scriptedProvider([assistantText('SUMMARY: we talked')]);
    const all = await collect(runCompaction(history, { provider, signal: new AbortController().signal, hooks: runner }, 'manual'));
    expect(ofType(all, 'compact')).toHaveLength(1);
    expect(JSON.parse(await fs.readFile(seen, 'utf8'))).toMatchObject({ hook_event_name: 'PostCompact', trigger: 'manual', compact_summary: expect.stringContaining('we talked') });
  });
});

describe('output fields every event shares', () => {
  it('continue: false with stopReason stops a prompt before the model is called; the reason is shown', async () => {
    const hook = await script(dir, 'stop.sh', `echo '{"continue":false,"stopReason":"the repo is frozen for release"}'`);
    const { runner } = claudeHooks(dir, { UserPromptSubmit: [{ hooks: [command(hook)] }] });
    const { events, provider } = run(runner, [assistantText('never')]);
    const all = await events;
    expect(provider.requests).toHaveLength(0);
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'stopped', text: 'the repo is frozen for release' })]);
  });

  it('continue: false beats a permissionDecision allow at PreToolUse: the call does not run', async () => {
    const hook = await script(dir, 'stop.sh', `echo '{"continue":false,"stopReason":"stop everything","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(hook)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    await expect(fs.access(path.join(dir, 'a.txt'))).rejects.toThrow();
    expect(ofType(all, 'tool_result')[0]?.content).toContain('stop everything');
  });

  it('systemMessage is shown to the user and not sent to the model', async () => {
    const hook = await script(dir, 'warn.sh', `echo '{"systemMessage":"heads up: CI is red"}'`);
    const { runner } = claudeHooks(dir, { UserPromptSubmit: [{ hooks: [command(hook)] }] });
    const { events, provider } = run(runner, [assistantText('ok')]);
    const all = await events;
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'message', text: 'heads up: CI is red' })]);
    expect(sentText(provider.requests[0] as { messages: Message[] })).not.toContain('CI is red');
  });

  it('suppressOutput: true hides the added context from the user; the model still gets it', async () => {
    const hook = await script(dir, 'quiet.sh', `echo '{"suppressOutput":true,"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch is feature/x"}}'`);
    const loud = await script(dir, 'loud.sh', `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ticket ABC-1"}}'`);
    const { runner } = claudeHooks(dir, { UserPromptSubmit: [{ hooks: [command(hook), command(loud)] }] });
    const { events, provider } = run(runner, [assistantText('ok')]);
    const all = await events;
    expect(ofType(all, 'hook').map((h) => h.text)).toEqual(['ticket ABC-1']);
    const sent = sentText(provider.requests[0] as { messages: Message[] });
    expect(sent).toContain('branch is feature/x');
    expect(sent).toContain('ticket ABC-1');
  });
});
