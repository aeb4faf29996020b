// PostToolBatch: once per batch of tool calls, after every result and before the next model call,
// with a real hook script. Its additionalContext goes to the model with the results; a block ends the turn.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import type { HookRunner } from '../../../src/hooks/hook-types.js';
import { ofType } from '../../helpers/collect.js';
import { hookedTurn, claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import type { scriptedProvider} from '../../helpers/scripted-provider.js';
import { assistantText, toolCalls } from '../../helpers/scripted-provider.js';

let dir: string;
beforeEach(async () => {
  dir = await hookWorkspace();
  await fs.writeFile(path.join(dir, 'a.txt'), 'alpha\n');
  await fs.writeFile(path.join(dir, 'b.txt'), 'beta\n');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

function run(hooks: HookRunner, replies: Parameters<typeof scriptedProvider>[0]) {
  return hookedTurn(hooks, replies, { tools: [createReadFileTool()], permissions: createPermissionChecker({ workspace: dir, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: path.join(dir, '.home') }), cwd: dir });
}

const twoReads = toolCalls(['r1', 'read_file', { path: 'a.txt' }], ['r2', 'read_file', { path: 'b.txt' }]);

describe('PostToolBatch', () => {
  it('runs once for the batch with every call and its result; its additionalContext reaches the next model call', async () => {
    const log = path.join(dir, 'batches.jsonl');
    const hook = await script(dir, 'batch.sh', `cat >> "${log}"\necho >> "${log}"\necho '{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"These files belong to the ledger module."}}'`);
    const { runner } = claudeHooks(dir, { PostToolBatch: [{ hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [twoReads, assistantText('done')]);
    const all = await events;
    const lines = (await fs.readFile(log, 'utf8')).trim().split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    const stdin = JSON.parse(lines[0] ?? '{}') as { hook_event_name: string; tool_calls: { tool_name: string; tool_input: { file_path: string }; tool_use_id: string; tool_response: string }[] };
    expect(stdin.hook_event_name).toBe('PostToolBatch');
    expect(stdin.tool_calls.map((c) => [c.tool_name, c.tool_input.file_path, c.tool_use_id])).toEqual([
      ['Read', path.join(dir, 'a.txt'), 'r1'],
      ['Read', path.join(dir, 'b.txt'), 'r2'],
    ]);
    expect(stdin.tool_calls[0]?.tool_response).toContain('alpha');
    expect(stdin.tool_calls[1]?.tool_response).toContain('beta');
    expect(JSON.stringify(provider.requests[1]?.messages.at(-1))).toContain('These files belong to the ledger module.');
    expect(ofType(all, 'terminal')[0]).toMatchObject({ reason: 'completed' });
  });

  it('decision "block" ends the turn before the next model call, saying why', async () => {
    const hook = await script(dir, 'stop.sh', `echo '{"decision":"block","reason":"enough reading for now"}'`);
    const { runner } = claudeHooks(dir, { PostToolBatch: [{ hooks: [command(hook)] }] });
    const { provider, events } = run(runner, [twoReads, assistantText('never sent')]);
    const all = await events;
    expect(provider.requests).toHaveLength(1);
    expect(ofType(all, 'notice').map((n) => n.message).join('\n')).toContain('PostToolBatch hook');
    expect(ofType(all, 'notice').map((n) => n.message).join('\n')).toContain('enough reading for now');
    // Both reads ran (side by side: their results arrive in the order they finish).
    expect(ofType(all, 'tool_result').map((r) => r.id).sort()).toEqual(['r1', 'r2']);
  });
});
