// WorktreeCreate / WorktreeRemove around a subagent with isolation: worktree, with real hook scripts,
// real git and a loopback Anthropic server. A WorktreeCreate hook replaces git's creation (the
// subagent works where the hook says); what it prints is checked (an existing directory, else the
// agent does not run and the hook is named); WorktreeRemove is told before a worktree is removed.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { anthropicReply, type AnthropicRequestBody, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { git } from '../../helpers/test-git.js';

afterEach(closeAnthropicRuntimes);

const isSubagent = (body: AnthropicRequestBody): boolean => JSON.stringify(body.system ?? '').includes('subagent of cairn');
const answersPrompt = (body: AnthropicRequestBody): boolean => !JSON.stringify(body.messages.at(-1)).includes('tool_result');
const exists = (p: string): Promise<boolean> => fs.lstat(p).then(() => true, () => false);

async function repo(dir: string): Promise<void> {
  git(dir, 'init', '-q', '-b', 'main');
  await fs.writeFile(path.join(dir, 'a.txt'), 'committed\n');
  git(dir, 'add', 'a.txt');
  git(dir, 'commit', '-q', '-m', 'init');
}

/** The lead starts one isolated subagent, which (optionally) writes a file, then reports. */
function script(write?: string) {
  return (req: { body: AnthropicRequestBody }) => {
    if (isSubagent(req.body)) {
      if (write !== undefined && req.body.messages.length === 1) return anthropicReply([{ type: 'tool_use', id: 'toolu_w', name: 'write_file', input: { path: write, content: 'from the subagent\n' } }]);
      return anthropicReply([{ type: 'text', text: 'subagent done' }]);
    }
    if (answersPrompt(req.body)) return anthropicReply([{ type: 'tool_use', id: 'toolu_lead', name: 'agent', input: { type: 'general', task: 'work', description: 'isolated', isolation: 'worktree' } }]);
    return anthropicReply([{ type: 'text', text: 'lead done' }]);
  };
}

/** The text of the agent tool's result the lead received. */
function agentResult(server: ScriptedServer<AnthropicRequestBody>): string {
  for (const r of server.requests) {
    for (const m of r.body.messages) {
      if (!Array.isArray(m.content)) continue;
      for (const block of m.content as { type: string; tool_use_id?: string; content?: unknown }[]) {
        if (block.type !== 'tool_result' || block.tool_use_id !== 'toolu_lead') continue;
        const content = block.content;
        return typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? '').join('\n') : '';
      }
    }
  }
  return '';
}

async function start(opts: { create?: string; remove?: boolean; write?: string }) {
  let ws = '';
  let logs = '';
  const started = await anthropicRuntime({
    runtime: { sandbox: false, permissionMode: 'acceptEdits' },
    script: script(opts.write),
    setUp: async ({ dir, home }) => {
      ws = dir;
      logs = path.join(path.dirname(dir), 'hook-logs');
      await fs.mkdir(logs);
      await repo(dir);
      const hooks: Record<string, unknown> = {};
      const write = async (name: string, body: string): Promise<string> => {
        const file = path.join(logs, name);
        await fs.writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
        return file;
      };
      if (opts.create !== undefined) hooks['WorktreeCreate'] = [{ hooks: [{ type: 'command', command: await write('create.sh', `cat > "${logs}/create.json"\n${opts.create}`) }] }];
      if (opts.remove === true) hooks['WorktreeRemove'] = [{ hooks: [{ type: 'command', command: await write('remove.sh', `cat > "${logs}/remove.json"\np=$(sed 's/.*"worktree_path":"\\([^"]*\\)".*/\\1/' "${logs}/remove.json")\n[ -d "$p" ] && echo present > "${logs}/remove-saw" || echo absent > "${logs}/remove-saw"`) }] }];
      await fs.writeFile(path.join(home, 'settings.json'), JSON.stringify({ hooks }));
    },
  });
  return { ...started, ws, logs };
}

const json = async (file: string): Promise<Record<string, unknown>> => JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;

describe('WorktreeCreate and WorktreeRemove hooks around an isolated subagent', () => {
  it('without a WorktreeCreate hook git makes the worktree; WorktreeRemove gets its path while it still exists, before cairn removes it', async () => {
    const { runtime, server, logs } = await start({ remove: true });
    await runtime.session.run('go');
    const told = await json(path.join(logs, 'remove.json'));
    expect(told['hook_event_name']).toBe('WorktreeRemove');
    const removed = String(told['worktree_path']);
    expect(removed).toMatch(/\.cairn\/worktrees\/agent-general-[0-9a-f]{6}$/);
    expect((await fs.readFile(path.join(logs, 'remove-saw'), 'utf8')).trim()).toBe('present');
    expect(await exists(removed)).toBe(false);
    expect(agentResult(server)).toContain('changed nothing, so the worktree');
  });

  it('a WorktreeCreate hook replaces git: it gets the name, the subagent works in the directory it printed, and WorktreeRemove is told at the end', async () => {
    const { runtime, server, ws, logs } = await start({
      create: `name=$(sed 's/.*"name":"\\([^"]*\\)".*/\\1/' "${'$'}(dirname "$0")/create.json")\nd="$(dirname "$0")/made-$name"\nmkdir -p "$d" && echo "making $d" >&2 && echo "$d"`,
      remove: true,
      write: 'hello.txt',
    });
    await runtime.session.run('go');
    const input = await json(path.join(logs, 'create.json'));
    expect(input).toMatchObject({ hook_event_name: 'WorktreeCreate', cwd: ws });
    expect(String(input['name'])).toMatch(/^agent-general-[0-9a-f]{6}$/);
    const made = path.join(logs, `made-${String(input['name'])}`);
    expect(await fs.readFile(path.join(made, 'hello.txt'), 'utf8')).toBe('from the subagent\n');
    expect(await exists(path.join(ws, 'hello.txt'))).toBe(false);
    expect(await exists(path.join(ws, '.cairn', 'worktrees'))).toBe(false);
    expect(git(ws, 'worktree', 'list')).not.toContain('agent-general');
    expect((await json(path.join(logs, 'remove.json')))['worktree_path']).toBe(made);
    expect(agentResult(server)).toContain(`The subagent worked in ${made}, made by the WorktreeCreate hook; the WorktreeRemove hooks were run for it.`);
  });

  it('a path that does not exist, a file, the workspace or / fails the creation naming the hook: the subagent does not run and git makes nothing', async () => {
    for (const [create, why] of [
      ['echo /nonexistent/place', 'printed /nonexistent/place, which does not exist'],
      ['echo "$0"', 'which is not a directory'],
      ['echo relative/dir', 'printed "relative/dir", which is not an absolute path'],
      ['pwd', 'which is the workspace itself; a worktree must be a folder of its own'],
      ['echo /', 'printed /, which is the filesystem root'],
      ['echo boom >&2; exit 1', 'failed: exited with 1: boom'],
      ['true', 'failed: printed no worktree path'],
    ] as const) {
      const { runtime, server, ws } = await start({ create });
      await runtime.session.run('go');
      const result = agentResult(server);
      expect(result).toContain('Cannot start the general subagent in a worktree: ');
      expect(result).toContain(why);
      expect(result).toMatch(/the WorktreeCreate hook \(.*settings\.json/);
      expect(server.requests.some((r) => isSubagent(r.body))).toBe(false);
      expect(await exists(path.join(ws, '.cairn', 'worktrees'))).toBe(false);
      await closeAnthropicRuntimes();
    }
  });
});
