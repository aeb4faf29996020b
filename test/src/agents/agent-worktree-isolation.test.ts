// A subagent with isolation: worktree (issue 38 item 1), through the runtime, a loopback Anthropic
// server, real git and real bubblewrap: its tools are rooted at its own worktree, and every way back
// into the main tree (a relative ../../.., a symlink, bash, the worktree's .git pointer) is contained
// by the sandbox or asked (denied here, with no one to ask), as the lead's writes outside the workspace are.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import { BACKGROUND_AGENTS_ENDED } from '../../../src/runtime/background-work.js';
import { waitFor } from '../../helpers/wait-for.js';
import { initialState, reduce } from '../../../components/store/reduce.js';
import { createAgentRenderer } from '../../../components/transcript/agent-renderer.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { anthropicReply, type AnthropicRequestBody } from '../../helpers/anthropic-server.js';
import { git } from '../../helpers/test-git.js';

afterEach(closeAnthropicRuntimes);
// Not under /tmp: inside the sandbox /tmp is the session's own, so a workspace there would not be the host's path.
const tmpdir = process.env['TMPDIR'];
beforeAll(() => {
  process.env['TMPDIR'] = '/var/tmp';
});
afterAll(() => {
  if (tmpdir === undefined) delete process.env['TMPDIR'];
  else process.env['TMPDIR'] = tmpdir;
});
/** The lead's request answers a prompt (not a tool result). */
const answersPrompt = (body: AnthropicRequestBody): boolean => !JSON.stringify(body.messages.at(-1)).includes('tool_result');

const isSubagent = (body: AnthropicRequestBody): boolean => JSON.stringify(body.system ?? '').includes('subagent of cairn');
const exists = (p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);

/** A repository with one commit (a.txt), and a.txt changed but not committed in the main tree. */
async function dirtyRepo(dir: string): Promise<void> {
  git(dir, 'init', '-q', '-b', 'main');
  await fs.writeFile(path.join(dir, 'a.txt'), 'committed\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'init');
  await fs.writeFile(path.join(dir, 'a.txt'), 'uncommitted in the main tree\n');
}

/** The subagent's calls, one per request, then its report. */
function subagentSteps(steps: Array<{ name: string; input: Record<string, unknown> }>, report: string) {
  return (body: AnthropicRequestBody) => {
    const step = (body.messages.length - 1) / 2;
    const call = steps[step];
    if (call) return anthropicReply([{ type: 'tool_use', id: `toolu_s${step}`, name: call.name, input: call.input }]);
    return anthropicReply([{ type: 'text', text: report }]);
  };
}

describe('a subagent with isolation: worktree', () => {
  it('works in its own worktree from HEAD; ../../.., a symlink, bash and the .git pointer cannot reach the main tree; the lead gets the branch and a diff summary', async () => {
    const node = (code: string) => ({ name: 'bash', input: { command: `node -e "${code}"`, description: 'node' } });
    const steps = [
      { name: 'read_file', input: { path: 'a.txt' } },
      { name: 'bash', input: { command: 'echo inside > inside-bash.txt && pwd', description: 'where am I' } },
      // What the permission check cannot see runs unasked in the sandbox, whose writable root is the worktree alone.
      node("require('fs').writeFileSync('../../../pwned-node.txt', 'x')"),
      node("require('fs').symlinkSync('../../..', 'up')"),
      node("require('fs').writeFileSync('up/pwned-link-node.txt', 'x')"),
      node("require('fs').writeFileSync('.git', 'gitdir: /tmp')"),
      // What it can see is asked, as the lead's writes outside the workspace are.
      { name: 'bash', input: { command: 'echo pwned > ../../../pwned-bash.txt', description: 'redirect out' } },
      { name: 'write_file', input: { path: '../../../pwned-write.txt', content: 'pwned\n' } },
      { name: 'write_file', input: { path: 'up/pwned-link.txt', content: 'pwned\n' } },
      { name: 'write_file', input: { path: 'written.txt', content: 'one\ntwo\n' } },
    ];
    const subagent = subagentSteps(steps, 'subagent done');
    const { runtime, server, dir } = await anthropicRuntime({
      runtime: { sandbox: true, permissionMode: 'acceptEdits' },
      setUp: async ({ dir: ws }) => dirtyRepo(ws),
      script: (req) => {
        if (isSubagent(req.body)) return subagent(req.body);
        if (answersPrompt(req.body)) {
          return anthropicReply([{ type: 'tool_use', id: 'toolu_lead', name: 'agent', input: { type: 'general', task: 'try everything', description: 'escape', isolation: 'worktree' } }]);
        }
        return anthropicReply([{ type: 'text', text: 'lead done' }]);
      },
    });
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    expect((await runtime.session.run('go')).reason).toBe('completed');

    const worktrees = await fs.readdir(path.join(dir, '.cairn', 'worktrees'));
    expect(worktrees).toEqual([expect.stringMatching(/^agent-general-[0-9a-f]{6}$/)]);
    const wt = path.join(dir, '.cairn', 'worktrees', worktrees[0]!);
    const branch = worktrees[0]!;
    expect(git(wt, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe(branch);

    // Its tools were rooted at the worktree: the relative read saw HEAD's a.txt, bash ran there, writes landed there.
    const sub = server.requests.filter((r) => isSubagent(r.body)).map((r) => JSON.stringify(r.body.messages));
    expect(sub[1]).toContain('committed');
    expect(sub[1]).not.toContain('uncommitted in the main tree');
    expect(sub[2]).toContain(wt);
    expect(sub[3]).not.toContain('(no output)');
    expect(await fs.readFile(path.join(wt, 'inside-bash.txt'), 'utf8')).toBe('inside\n');
    expect(await fs.readFile(path.join(wt, 'written.txt'), 'utf8')).toBe('one\ntwo\n');

    // Nothing reached the main tree: not through ../../.., the symlink, or bash; the .git pointer is intact.
    for (const name of ['pwned-node.txt', 'pwned-link-node.txt', 'pwned-bash.txt', 'pwned-write.txt', 'pwned-link.txt']) {
      expect(await exists(path.join(dir, name)), name).toBe(false);
    }
    expect(await fs.readFile(path.join(wt, '.git'), 'utf8')).toMatch(/^gitdir: .*\.git\/worktrees\//);
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('uncommitted in the main tree\n');
    expect(await fs.readlink(path.join(wt, 'up'))).toBe('../../..');
    // The result of step n is in the request after it.
    for (const step of [2, 4, 5]) expect(sub[step + 1], `step ${step}`).toMatch(/EROFS|read-only file system/i);
    // The three writes it could see were put to the user (denied: no one to ask), as the lead's would be.
    const denied = events.flatMap((e) => (e.type === 'subagent' && e.event.type === 'permission_denied' ? [e.event] : []));
    expect(denied.map((d) => [d.name, d.reason])).toEqual([
      ['bash', expect.stringMatching(/outside the workspace/)],
      ['write_file', expect.stringMatching(/outside the workspace/)],
      ['write_file', expect.stringMatching(/outside the workspace/)],
    ]);

    // The lead's result names the branch and the diff; the card's display carries it.
    const result = events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.id === 'toolu_lead');
    expect(result?.content).toContain('subagent done');
    expect(result?.content).toContain(`on the branch ${branch} (kept; not in your working tree): 3 files changed, +3 -0`);
    expect(result?.content).toContain('written.txt +2 -0');
    expect(result?.content).toContain('It started from HEAD');
    expect(result?.display).toMatchObject({ kind: 'agent', worktree: { branch, kept: true, files: 3, added: 3 } });
    // Its card says so in its header line.
    const state = events.reduce((st, event) => reduce(st, { type: 'event', event, at: 0 }), initialState());
    const card = state.items.find((i) => i.kind === 'tool' && i.toolUseId === 'toolu_lead');
    expect(card?.kind === 'tool' ? createAgentRenderer().summary?.(card) : undefined).toMatch(new RegExp(`· branch ${branch} · 3 files \\+3 -0$`));
  }, 90_000);

  it('a worktree it did not change is removed with its branch; outside a git repository it is refused and does not run', async () => {
    const { runtime, server, dir } = await anthropicRuntime({
      runtime: { sandbox: true },
      setUp: async ({ dir: ws }) => {
        git(ws, 'init', '-q', '-b', 'main');
        await fs.writeFile(path.join(ws, 'a.txt'), 'a\n');
        git(ws, 'add', 'a.txt');
        git(ws, 'commit', '-q', '-m', 'init');
      },
      script: (req) => {
        if (isSubagent(req.body)) return anthropicReply([{ type: 'text', text: 'looked, changed nothing' }]);
        if (answersPrompt(req.body)) {
          return anthropicReply([{ type: 'tool_use', id: 'toolu_lead', name: 'agent', input: { type: 'general', task: 'look', description: 'look', isolation: 'worktree' } }]);
        }
        return anthropicReply([{ type: 'text', text: 'lead done' }]);
      },
    });
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    await runtime.session.run('go');
    const result = events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.id === 'toolu_lead');
    expect(result?.content).toMatch(/changed nothing, so the worktree .*agent-general-[0-9a-f]{6} and its branch agent-general-[0-9a-f]{6} were removed/);
    expect(await fs.readdir(path.join(dir, '.cairn', 'worktrees'))).toEqual([]);
    expect(git(dir, 'branch', '--list', 'agent-*').trim()).toBe('');
    expect(server.requests.filter((r) => isSubagent(r.body))).toHaveLength(1);
    const st = events.reduce((acc, event) => reduce(acc, { type: 'event', event, at: 0 }), initialState());
    const card = st.items.find((i) => i.kind === 'tool' && i.toolUseId === 'toolu_lead');
    expect(card?.kind === 'tool' ? createAgentRenderer().summary?.(card) : undefined).toMatch(/· worktree removed \(no changes\)$/);

    // Not a repository: a clear refusal, as Claude Code's; the subagent never asks the model.
    await fs.rm(path.join(dir, '.git'), { recursive: true, force: true });
    events.length = 0;
    await runtime.session.run('go');
    const refused = events.find((e): e is EventOf<'tool_result'> => e.type === 'tool_result' && e.id === 'toolu_lead');
    expect(refused?.is_error).toBe(true);
    expect(refused?.content).toMatch(/^Cannot start the general subagent in a worktree: isolation: worktree needs a git repository: .* is not in one/);
    expect(server.requests.filter((r) => isSubagent(r.body))).toHaveLength(1);
  }, 90_000);

  it('two background subagents run at once in their own worktrees; the lead\'s turn ends while they run; both results arrive as notices and in the next request', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const { runtime, server, dir } = await anthropicRuntime({
      runtime: { interactive: true, sandbox: true, permissionMode: 'acceptEdits' },
      setUp: async ({ dir: ws }) => dirtyRepo(ws),
      script: async (req) => {
        if (isSubagent(req.body)) {
          const which = JSON.stringify(req.body.messages).includes('task alpha') ? 'alpha' : 'beta';
          if (req.body.messages.length === 1) {
            await released;
            // The same file name in both: each lands in its own worktree.
            return anthropicReply([{ type: 'tool_use', id: `toolu_${which}`, name: 'bash', input: { command: `echo ${which} > same.txt && pwd`, description: 'write' } }]);
          }
          return anthropicReply([{ type: 'text', text: `report from ${which}` }]);
        }
        if (JSON.stringify(req.body.messages).includes('start both') && req.body.messages.length === 1) {
          return anthropicReply([
            { type: 'tool_use', id: 'toolu_a', name: 'agent', input: { type: 'general', task: 'task alpha', description: 'alpha', run_in_background: true, isolation: 'worktree' } },
            { type: 'tool_use', id: 'toolu_b', name: 'agent', input: { type: 'general', task: 'task beta', description: 'beta', run_in_background: true, isolation: 'worktree' } },
          ]);
        }
        return anthropicReply([{ type: 'text', text: 'noted' }]);
      },
    });
    const events: AgentEvent[] = [];
    runtime.session.subscribe((e) => events.push(e));
    expect((await runtime.session.run('start both')).reason).toBe('completed');
    expect(runtime.session.busy).toBe(false);
    await waitFor(() => server.requests.filter((r) => isSubagent(r.body)).length === 2, { timeout: 30_000, message: 'both subagents asked the model' });
    expect(runtime.background.agents.list().map((a) => a.status)).toEqual(['running', 'running']);
    const worktrees = (await fs.readdir(path.join(dir, '.cairn', 'worktrees'))).sort();
    expect(worktrees).toEqual([expect.stringMatching(/^agent-general-/), expect.stringMatching(/^agent-general-/)]);
    const leadBefore = server.requests.filter((r) => !isSubagent(r.body)).length;

    release();
    const notices = await waitFor(() => {
      const done = events.filter((e): e is EventOf<'background_agent'> => e.type === 'background_agent' && e.status !== 'running');
      if (done.length !== 2) throw new Error(`${done.length} of 2 ended`);
      return done;
    }, { timeout: 60_000 });
    for (const n of notices) expect(n.result).toMatch(/^report from (alpha|beta)\n\nThe subagent's changes are in the git worktree .* on the branch agent-general-[0-9a-f]{6} \(kept; not in your working tree\): 1 file changed, \+1 -0/);
    // Each wrote same.txt in its own worktree; the main tree has none.
    const written = await Promise.all(worktrees.map((w) => fs.readFile(path.join(dir, '.cairn', 'worktrees', w, 'same.txt'), 'utf8')));
    expect(written.sort()).toEqual(['alpha\n', 'beta\n']);
    expect(await exists(path.join(dir, 'same.txt'))).toBe(false);

    const later = await waitFor(() => {
      const lead = server.requests.filter((r) => !isSubagent(r.body)).slice(leadBefore);
      const all = lead.map((r) => JSON.stringify(r.body.messages)).join('\n');
      if (!all.includes('report from alpha') || !all.includes('report from beta') || runtime.session.busy) throw new Error('not yet');
      return all;
    }, { timeout: 30_000, message: 'both reports in the lead\'s requests' });
    expect(later).toContain(BACKGROUND_AGENTS_ENDED);
    for (const w of worktrees) expect(later).toContain(`on the branch ${w}`);
  }, 120_000);
});
