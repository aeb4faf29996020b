import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type QueryParams } from '../../../src/loop/query.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { AskPermission, PermissionChecker } from '../../../src/permissions/types.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import type { HookRunner } from '../../../src/hooks/hook-types.js';
import type { collect} from '../../helpers/collect.js';
import { ofType } from '../../helpers/collect.js';
import { allowEverything, realPermissions } from '../../helpers/real-permissions.js';
import { waitFor } from '../../helpers/wait-for.js';
import { hookedTurn, cairnHooks, claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import type { scriptedProvider} from '../../helpers/scripted-provider.js';
import { assistantText, toolCall, toolCalls } from '../../helpers/scripted-provider.js';

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

const tools = () => [createWriteFileTool(), createEditFileTool(), createReadFileTool()];

function run(hooks: HookRunner, replies: Parameters<typeof scriptedProvider>[0], extra: Partial<QueryParams> = {}) {
  return hookedTurn(hooks, replies, { tools: tools(), permissions: open, cwd: dir, ...extra });
}

const exists = (file: string) => fs.access(file).then(() => true, () => false);
const resultOf = (events: Awaited<ReturnType<typeof collect>>, id: string) => ofType(events, 'tool_result').find((r) => r.id === id);

describe("PreToolUse, Claude Code's format", () => {
  it('exit 2 blocks the call: nothing is written, stderr is the reason the model reads, the hook event names the card', async () => {
    const hook = await script(dir, 'no-writes.sh', 'echo "writes are frozen today" >&2\nexit 2');
    const { runner } = claudeHooks(dir, { PreToolUse: [{ matcher: 'Write', hooks: [command(hook)] }] });
    const { events } = run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]);
    const all = await events;
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
    expect(resultOf(all, 'w1')).toMatchObject({ is_error: true });
    expect(resultOf(all, 'w1')?.content).toContain('writes are frozen today');
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'blocked', text: 'writes are frozen today', tool_id: 'w1', hook_event: 'PreToolUse' })]);
  });

  it("sees Claude Code's tool name and fields on stdin, paths absolute, with $CLAUDE_PROJECT_DIR set", async () => {
    const seen = path.join(dir, 'seen.json');
    const hook = await script(dir, 'see.sh', `cat > "${seen}"\necho "$CLAUDE_PROJECT_DIR|$CAIRN_PROJECT_DIR" > "${seen}.env"`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ matcher: 'Edit|Write', hooks: [command(hook)] }] });
    await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'hello' }), assistantText('ok')]).events;
    const stdin = JSON.parse(await fs.readFile(seen, 'utf8')) as Record<string, unknown>;
    expect(stdin).toMatchObject({
      hook_event_name: 'PreToolUse', tool_name: 'Write', tool_use_id: 'w1', cwd: dir, session_id: 'test-session',
      tool_input: { file_path: path.join(dir, 'a.txt'), content: 'hello' },
    });
    expect((await fs.readFile(`${seen}.env`, 'utf8')).trim()).toBe(`${dir}|${dir}`);
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('hello');
  });

  it('permissionDecision deny (JSON on stdout, exit 0) blocks with its reason', async () => {
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'use the staging dir' } });
    const hook = await script(dir, 'deny.sh', `echo '${json}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(hook)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(resultOf(all, 'w1')?.content).toMatch(/Blocked by a PreToolUse hook .*use the staging dir/);
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
  });

  it('permissionDecision ask puts an allowed call to the user; a no blocks it', async () => {
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask', permissionDecisionReason: 'big file' } });
    const hook = await script(dir, 'ask.sh', `echo '${json}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ matcher: 'Write', hooks: [command(hook)] }] });
    const asked: string[] = [];
    const ask: AskPermission = async (req) => {
      asked.push(req.reason);
      return { behavior: 'deny' };
    };
    // The project allows writes (default mode, an allow rule): only the hook's ask puts this one to the user.
    const { permissions } = await realPermissions({ workspace: dir, settings: { permissions: { allow: ['write_file'] } } });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')], { ask, permissions }).events;
    expect(asked).toEqual([expect.stringContaining('big file')]);
    expect(ofType(all, 'permission_request')).toHaveLength(1);
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
  });

  it("updatedInput in Claude Code's field names is mapped back: the write goes where the hook said", async () => {
    const json = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { file_path: path.join(dir, 'b.txt'), content: 'rewritten' } } });
    const hook = await script(dir, 'redirect.sh', `echo '${json}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ matcher: 'Write', hooks: [command(hook)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
    expect(await fs.readFile(path.join(dir, 'b.txt'), 'utf8')).toBe('rewritten');
    expect(ofType(all, 'hook').map((h) => h.outcome)).toEqual(['updated']);
  });

  it('an updatedInput that fails the schema is an error result, and the tool does not run', async () => {
    const hook = await script(dir, 'bad.sh', `echo '{"hookSpecificOutput":{"updatedInput":{"file_path":"a.txt","content":5}}}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ matcher: 'Write', hooks: [command(hook)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(resultOf(all, 'w1')).toMatchObject({ is_error: true, content: expect.stringContaining('Invalid input for write_file') });
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
  });

  it('a rewritten call leaves its parallel batch: it runs alone while the others still run', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'A\n');
    await fs.writeFile(path.join(dir, 'b.txt'), 'B\n');
    const hook = await script(dir, 'reroute.sh', `grep -q a.txt && echo '{"hookSpecificOutput":{"updatedInput":{"file_path":"b.txt"}}}' || true`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ matcher: 'Read', hooks: [command(hook)] }] });
    const all = await run(runner, [toolCalls(['r1', 'read_file', { path: 'a.txt' }], ['r2', 'read_file', { path: 'b.txt' }]), assistantText('ok')]).events;
    expect(resultOf(all, 'r1')?.content).toContain('B');
    expect(resultOf(all, 'r2')?.content).toContain('B');
  });
});

describe('PreToolUse against the permission chain (the model and the hook input are untrusted)', () => {
  const checker = (deny: string[]) => createPermissionChecker({ workspace: dir, mode: 'acceptEdits', rules: { allow: [], ask: [], deny }, cairnHome: path.join(dir, '.home') });

  it("a hook's allow never overrides a deny rule", async () => {
    const hook = await script(dir, 'allow.sh', `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(hook)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'secret/k.txt', content: 'x' }), assistantText('ok')], { permissions: checker(['Edit(secret/**)']) }).events;
    expect(resultOf(all, 'w1')).toMatchObject({ is_error: true, content: expect.stringContaining('Permission denied') });
    expect(await exists(path.join(dir, 'secret', 'k.txt'))).toBe(false);
  });

  it('an updatedInput cannot carry an allowed call into a denied path: the chain judges the new input', async () => {
    const hook = await script(dir, 'escape.sh', `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"file_path":"secret/k.txt","content":"pwned"}}}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(hook)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'ok.txt', content: 'x' }), assistantText('ok')], { permissions: checker(['Edit(secret/**)']) }).events;
    expect(resultOf(all, 'w1')).toMatchObject({ is_error: true, content: expect.stringContaining('Permission denied') });
    expect(await exists(path.join(dir, 'secret', 'k.txt'))).toBe(false);
    expect(await exists(path.join(dir, 'ok.txt'))).toBe(false);
  });

  it('an updatedInput that needs approval is asked about, even when the original was allowed', async () => {
    const hook = await script(dir, 'outside.sh', `echo '{"hookSpecificOutput":{"updatedInput":{"file_path":"/tmp/cairn-hook-outside-${process.pid}.txt","content":"x"}}}'`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(hook)] }] });
    const asked: unknown[] = [];
    const ask: AskPermission = async (req) => {
      asked.push(req.input);
      return { behavior: 'deny' };
    };
    await run(runner, [toolCall('w1', 'write_file', { path: 'ok.txt', content: 'x' }), assistantText('ok')], { permissions: checker([]), ask }).events;
    expect(asked).toEqual([{ path: `/tmp/cairn-hook-outside-${process.pid}.txt`, content: 'x' }]);
    expect(await exists(`/tmp/cairn-hook-outside-${process.pid}.txt`)).toBe(false);
  });
});

describe('PostToolUse', () => {
  it('additionalContext and a block reason are added to the result the model reads; the file stays written', async () => {
    const hook = await script(dir, 'post.sh', `echo '{"decision":"block","reason":"lint failed: missing semicolon","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ran eslint"}}'`);
    const { runner } = claudeHooks(dir, { PostToolUse: [{ matcher: 'Write', hooks: [command(hook)] }] });
    const { events, provider } = run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]);
    const all = await events;
    const content = resultOf(all, 'w1')?.content ?? '';
    expect(content).toContain('lint failed: missing semicolon');
    expect(content).toContain('ran eslint');
    expect(JSON.stringify(provider.requests[1]?.messages)).toContain('lint failed');
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('x');
  });
});

describe('PostToolUseFailure', () => {
  it('runs on an error result (not PostToolUse): it reads the error on stdin, and its additionalContext and exit-2 stderr reach the model', async () => {
    await fs.writeFile(path.join(dir, 'a.txt'), 'hello\n');
    const seen = path.join(dir, 'failure.json');
    const failure = await script(dir, 'failure.sh', `cat > "${seen}"\necho '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"read the file before editing it"}}'`);
    const shout = await script(dir, 'shout.sh', 'echo "edit failed, see the log" >&2\nexit 2');
    const post = await script(dir, 'post.sh', `touch "${dir}/post-ran"`);
    const { runner } = claudeHooks(dir, {
      PostToolUseFailure: [{ matcher: 'Edit', hooks: [command(failure)] }, { matcher: 'Edit|Write', hooks: [command(shout)] }],
      PostToolUse: [{ hooks: [command(post)] }],
    });
    const { events, provider } = run(runner, [toolCall('e1', 'edit_file', { path: 'a.txt', old_string: 'absent', new_string: 'x' }), assistantText('ok')]);
    const all = await events;
    const result = resultOf(all, 'e1');
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain('read the file before editing it');
    expect(result?.content).toContain('PostToolUseFailure hook');
    expect(result?.content).toContain('edit failed, see the log');
    expect(JSON.stringify(provider.requests[1]?.messages)).toContain('read the file before editing it');
    const stdin = JSON.parse(await fs.readFile(seen, 'utf8')) as Record<string, unknown>;
    expect(stdin).toMatchObject({ hook_event_name: 'PostToolUseFailure', tool_name: 'Edit', tool_use_id: 'e1', is_interrupt: false, tool_input: { file_path: path.join(dir, 'a.txt'), old_string: 'absent' } });
    expect(stdin['error']).toContain('edit_file refused: a.txt has not been read in this session');
    expect(stdin).not.toHaveProperty('tool_response');
    expect(await exists(path.join(dir, 'post-ran'))).toBe(false);
    expect(ofType(all, 'hook')).toContainEqual(expect.objectContaining({ hook_event: 'PostToolUseFailure', outcome: 'injected', tool_id: 'e1' }));
  });

  it('does not run on a success, where PostToolUse does', async () => {
    const failure = await script(dir, 'failure.sh', `touch "${dir}/failure-ran"`);
    const post = await script(dir, 'post.sh', `touch "${dir}/post-ran"`);
    const { runner } = claudeHooks(dir, { PostToolUseFailure: [{ hooks: [command(failure)] }], PostToolUse: [{ hooks: [command(post)] }] });
    await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'post-ran'))).toBe(true);
    expect(await exists(path.join(dir, 'failure-ran'))).toBe(false);
  });
});

describe('failing hooks decide nothing and say so, naming their file', () => {
  it('a crash (exit 3) and garbage JSON are notices; the call still runs', async () => {
    const crash = await script(dir, 'crash.sh', 'echo "boom" >&2\nexit 3');
    const garbage = await script(dir, 'garbage.sh', "echo '{not json'");
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(crash), command(garbage)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('x');
    const errors = ofType(all, 'hook').filter((h) => h.outcome === 'error');
    expect(errors.map((e) => e.text)).toEqual([expect.stringContaining('exited with 3: boom'), expect.stringContaining('not valid JSON')]);
    expect(errors.every((e) => e.source === path.join(dir, '.claude', 'settings.json'))).toBe(true);
  });

  it('a timed-out hook is killed with its process group and decides nothing', async () => {
    const pidFile = path.join(dir, 'child.pid');
    const hook = await script(dir, 'slow.sh', `sleep 60 &\necho $! > "${pidFile}"\nwait\necho "too late" >&2\nexit 2`);
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(hook, 0.5)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('x');
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'error', text: expect.stringContaining('timed out after 0.5s') })]);
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    // Gone, or a zombie waiting to be reaped: either way it no longer runs.
    const running = async () => {
      const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
      return stat !== '' && !/^\d+ \(.*\) Z/.test(stat);
    };
    await waitFor(async () => !(await running()), { timeout: 3000, message: `the hook's child ${pid} still runs` });
  });

  it('a timeout beyond what a timer can hold (3,000,000 s) is clamped to a day, said once with file and key, and the guard still blocks', async () => {
    const hook = await script(dir, 'slow-guard.sh', 'sleep 1\necho "still guarding" >&2\nexit 2');
    const { runner, problems, defs } = claudeHooks(dir, { PreToolUse: [{ matcher: 'Write', hooks: [command(hook, 3_000_000)] }] });
    expect(problems).toEqual([`${path.join(dir, '.claude', 'settings.json')}: hooks.PreToolUse[0].hooks[0].timeout: 3000000 seconds is longer than cairn waits for a hook; it is stopped after 86400 seconds (24 hours)`]);
    expect(defs.map((d) => d.timeoutMs)).toEqual([86_400_000]);
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
    expect(resultOf(all, 'w1')?.content).toContain('still guarding');
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'blocked', text: 'still guarding' })]);
  });

  it(".hooks.json's timeout is clamped the same way and its guard (exit 1) still blocks", async () => {
    const hook = await script(dir, 'slow-guard.sh', 'sleep 1\necho "no" >&2\nexit 1');
    const { runner, problems } = cairnHooks(dir, { PreToolUse: [{ command: hook, timeout: 3_000_000 }] });
    expect(problems).toEqual([expect.stringContaining(`${path.join(dir, '.hooks.json')}: PreToolUse[0].timeout: 3000000 seconds is longer than cairn waits`)]);
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
    expect(resultOf(all, 'w1')?.content).toMatch(/Blocked by a PreToolUse hook .*: no/);
  });

  it('matching hooks run in parallel: each waits for the other to have started', async () => {
    const wait = (mine: string, other: string) => `touch "${dir}/${mine}"\ni=0\nwhile [ ! -e "${dir}/${other}" ]; do i=$((i+1)); [ $i -gt 100 ] && { echo "ran alone" >&2; exit 2; }; sleep 0.05; done`;
    const a = await script(dir, 'a.sh', wait('a.flag', 'b.flag'));
    const b = await script(dir, 'b.sh', wait('b.flag', 'a.flag'));
    const { runner } = claudeHooks(dir, { PreToolUse: [{ hooks: [command(a)] }, { matcher: 'Write', hooks: [command(b)] }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(ofType(all, 'hook')).toEqual([]);
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('x');
  });
});

describe(".hooks.json's contract", () => {
  it('exit 1 blocks with stderr as the reason; HOOK_* variables carry the event, tool and input', async () => {
    const seen = path.join(dir, 'env.txt');
    const hook = await script(dir, 'secret-scan.sh', `echo "$HOOK_EVENT $HOOK_TOOL_NAME $HOOK_TOOL_INPUT" > "${seen}"\necho "looks like an API key" >&2\nexit 1`);
    const { runner } = cairnHooks(dir, { PreToolUse: [{ matcher: 'write_file', command: hook }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'sk-123' }), assistantText('ok')]).events;
    expect(await exists(path.join(dir, 'a.txt'))).toBe(false);
    expect(resultOf(all, 'w1')?.content).toContain('looks like an API key');
    expect(await fs.readFile(seen, 'utf8')).toBe(`PreToolUse write_file {"path":"a.txt","content":"sk-123"}\n`);
  });

  it('exit 2 injects stderr into the result; PostToolUse gets HOOK_TOOL_OUTPUT', async () => {
    const hook = await script(dir, 'audit.sh', 'echo "audited: $HOOK_TOOL_OUTPUT" >&2\nexit 2');
    const { runner } = cairnHooks(dir, { PostToolUse: [{ command: hook }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(resultOf(all, 'w1')?.content).toMatch(/audited: .*a\.txt/);
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'injected', tool_id: 'w1' })]);
  });

  it('a JSON updatedInput (in cairn names) and additionalContext apply', async () => {
    const hook = await script(dir, 'rename.sh', `echo '{"updatedInput":{"path":"c.txt","content":"y"},"additionalContext":"renamed by policy"}'`);
    const { runner } = cairnHooks(dir, { PreToolUse: [{ command: hook }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(await fs.readFile(path.join(dir, 'c.txt'), 'utf8')).toBe('y');
    expect(resultOf(all, 'w1')?.content).toContain('renamed by policy');
  });

  it('PostToolUse cannot block: exit 1 is a notice, the result stands', async () => {
    const hook = await script(dir, 'post1.sh', 'echo nope >&2\nexit 1');
    const { runner } = cairnHooks(dir, { PostToolUse: [{ command: hook }] });
    const all = await run(runner, [toolCall('w1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]).events;
    expect(resultOf(all, 'w1')?.is_error).toBe(false);
    expect(ofType(all, 'hook')).toEqual([expect.objectContaining({ outcome: 'error', text: expect.stringContaining('only PreToolUse and UserPromptSubmit can block') })]);
  });
});
