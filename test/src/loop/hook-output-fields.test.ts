// PostToolUse's updatedToolOutput and PermissionDenied's retry, with real hook scripts and real tools:
// what the model reads changes, what ran does not.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type QueryParams } from '../../../src/loop/query.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createBashTool } from '../../../src/tools/bash.js';
import type { HookRunner } from '../../../src/hooks/hook-types.js';
import type { ModelRequest } from '../../../src/providers/provider.js';
import { ofType } from '../../helpers/collect.js';
import { hookedTurn, claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import type { scriptedProvider} from '../../helpers/scripted-provider.js';
import { assistantText, toolCall } from '../../helpers/scripted-provider.js';

let dir: string;
beforeEach(async () => {
  dir = await hookWorkspace();
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const checker = (deny: string[] = []) =>
  createPermissionChecker({ workspace: dir, mode: 'default', rules: { allow: ['Bash(echo *)'], ask: [], deny }, cairnHome: path.join(dir, '.home') });

function run(hooks: HookRunner, replies: Parameters<typeof scriptedProvider>[0], extra: Partial<QueryParams> = {}) {
  return hookedTurn(hooks, replies, { tools: [createBashTool()], permissions: checker(), cwd: dir, ...extra });
}

/** The text of the tool result the model was sent in its second request. */
function resultSent(req: ModelRequest | undefined): string {
  const last = req?.messages.at(-1);
  const block = last?.content.find((b) => b.type === 'tool_result');
  if (block?.type !== 'tool_result') return '';
  return typeof block.content === 'string' ? block.content : block.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('PostToolUse updatedToolOutput', () => {
  it('a string replaces what the model reads; the command ran all the same (the hook saw its output)', async () => {
    const seen = path.join(dir, 'seen.json');
    const hook = await script(dir, 'redact.sh', `cat > "${seen}"\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"[redacted by policy]"}}'`);
    const { runner } = claudeHooks(dir, { PostToolUse: [{ matcher: 'Bash', hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [toolCall('b1', 'bash', { command: 'echo SECRET-TOKEN' }), assistantText('ok')]);
    const all = await events;
    expect(JSON.parse(await fs.readFile(seen, 'utf8'))).toMatchObject({ hook_event_name: 'PostToolUse', tool_response: expect.stringContaining('SECRET-TOKEN') });
    expect(resultSent(provider.requests[1])).toContain('[redacted by policy]');
    expect(resultSent(provider.requests[1])).not.toContain('SECRET-TOKEN');
    expect(ofType(all, 'hook').map((h) => h.text).join('\n')).toContain("replaced the tool's output for the model");
  });

  it("Claude Code's Bash shape {stdout, stderr, interrupted, isImage} is read for bash", async () => {
    const hook = await script(dir, 'shape.sh', `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"short version","stderr":"","interrupted":false,"isImage":false}}}'`);
    const { runner } = claudeHooks(dir, { PostToolUse: [{ matcher: 'Bash', hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [toolCall('b1', 'bash', { command: 'echo a very long original output' }), assistantText('ok')]);
    await events;
    expect(resultSent(provider.requests[1])).toBe('short version');
  });

  it('a value of another shape is ignored with a notice: the model reads the original output', async () => {
    const hook = await script(dir, 'bad.sh', `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"lines":3}}}'`);
    const { runner } = claudeHooks(dir, { PostToolUse: [{ matcher: 'Bash', hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [toolCall('b1', 'bash', { command: 'echo original-output' }), assistantText('ok')]);
    const all = await events;
    expect(resultSent(provider.requests[1])).toContain('original-output');
    expect(ofType(all, 'hook').map((h) => h.text).join('\n')).toContain('updatedToolOutput is not text or {stdout, stderr} and was ignored');
  });
});

describe('PermissionDenied retry', () => {
  it('retry: true tells the model it may retry; the denial stands and the retry is judged again', async () => {
    const hook = await script(dir, 'retry.sh', `echo '{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}'`);
    const { runner } = claudeHooks(dir, { PermissionDenied: [{ matcher: 'Bash', hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [toolCall('b1', 'bash', { command: 'touch x.txt' }), toolCall('b2', 'bash', { command: 'touch x.txt' }), assistantText('ok')], { permissions: checker(['Bash(touch *)']) });
    const all = await events;
    expect(resultSent(provider.requests[1])).toMatch(/^Permission denied: .*Bash\(touch \*\).*A PermissionDenied hook says you may retry this call/);
    expect(ofType(all, 'tool_result').find((r) => r.id === 'b2')).toMatchObject({ is_error: true, content: expect.stringContaining('Bash(touch *)') });
    await expect(fs.access(path.join(dir, 'x.txt'))).rejects.toThrow();
  });

  it('without retry the model reads the plain denial', async () => {
    const hook = await script(dir, 'quiet.sh', 'exit 0');
    const { runner } = claudeHooks(dir, { PermissionDenied: [{ matcher: 'Bash', hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [toolCall('b1', 'bash', { command: 'touch x.txt' }), assistantText('ok')], { permissions: checker(['Bash(touch *)']) });
    await events;
    expect(resultSent(provider.requests[1])).not.toContain('retry');
  });
});
