// monitor {command} starts the command itself (Claude Code's Monitor): it must be judged exactly as
// bash would judge the same command (Bash(...) deny, ask and allow rules, the analysis, the modes,
// the sandbox's auto-allow, auto mode's classifier), and it must run where bash would run it (the
// OS sandbox when unasked). These are the bypasses, written before the code: the real checker, the
// real loop, real bash and real bubblewrap.
import fs from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent, PermissionMode } from '../../../src/events.js';
import { query } from '../../../src/loop/query.js';
import { userText } from '../../../src/messages.js';
import type { AskPermission, PermissionChecker, PermissionRuleSet } from '../../../src/permissions/types.js';
import type { CommandSandbox } from '../../../src/sandbox/sandbox.js';
import { createShellManager, type ShellManager } from '../../../src/shells/shell-manager.js';
import { createShellWatches, type ShellWatches } from '../../../src/shells/shell-watches.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { createMonitorTool } from '../../../src/tools/monitor.js';
import type { AnyTool } from '../../../src/tools/tool.js';
import { collect, ofType } from '../../helpers/collect.js';
import { testChecker } from '../../helpers/permission-tools.js';
import { testSandbox } from '../../helpers/sandbox.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';
import { waitFor } from '../../helpers/wait-for.js';

let root: string;
let ws: string;
let outside: string;
let home: string;
let server: Server;
let port: number;
let connections = 0;
let sandbox: CommandSandbox;
const started: Array<{ shells: ShellManager; watches: ShellWatches }> = [];

beforeAll(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-monitor-perm-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  home = path.join(root, 'home');
  for (const d of [ws, outside, home]) await fs.mkdir(d, { recursive: true });
  await fs.writeFile(path.join(ws, 'app.log'), 'started\n');
  server = createServer((socket) => {
    connections++;
    socket.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
  sandbox = await testSandbox(ws);
});
afterEach(() => {
  for (const { shells, watches } of started.splice(0)) {
    watches.stopAll();
    shells.killAll();
  }
});
afterAll(async () => {
  sandbox.close();
  server.close();
  await fs.rm(root, { recursive: true, force: true });
});

function checker(mode: PermissionMode, rules: Partial<PermissionRuleSet> = {}): PermissionChecker {
  return testChecker({ workspace: ws, home, cairnHome: path.join(root, 'cairn-home') }, mode, rules);
}

/** The session's bash and monitor, on one shell manager, with or without the sandbox. */
function tools(withSandbox: boolean): { bash: AnyTool; monitor: AnyTool; shells: ShellManager; watches: ShellWatches; events: AgentEvent[] } {
  const events: AgentEvent[] = [];
  const shells = createShellManager({ onEvent: (e) => events.push(e) });
  const watches = createShellWatches({ shells, emit: (e) => events.push(e), limits: { batchMs: 100 } });
  started.push({ shells, watches });
  const s = withSandbox ? { sandbox } : {};
  return {
    bash: createBashTool({ shells, ...s }),
    monitor: createMonitorTool(shells, watches, s),
    shells,
    watches,
    events,
  };
}

interface Case {
  command: string;
  rules?: Partial<PermissionRuleSet>;
  mode?: PermissionMode;
  /** What bash gets (and so monitor must). */
  expected: 'allow' | 'ask' | 'deny';
  reason?: RegExp;
}

const OBFUSCATED_CURL = `eval "$(echo ${Buffer.from('curl -s http://127.0.0.1/').toString('base64')} | base64 -d)"`;

const cases: Case[] = [
  { command: 'curl -s http://127.0.0.1:9/health', rules: { deny: ['Bash(curl:*)'] }, expected: 'deny', reason: /denied by rule Bash\(curl:\*\)/ },
  { command: 'while true; do curl -s http://127.0.0.1:9/health; sleep 5; done', rules: { deny: ['Bash(curl:*)'] }, expected: 'deny', reason: /Bash\(curl:\*\)/ },
  { command: 'tail -f app.log | grep --line-buffered ERROR', rules: { deny: ['Bash(tail:*)'] }, expected: 'deny' },
  { command: OBFUSCATED_CURL, rules: { deny: ['Bash(curl:*)'] }, expected: 'deny', reason: /cannot tell what this command runs/ },
  { command: 'x=$(echo cu)rl; $x -s http://127.0.0.1:9/', rules: { deny: ['Bash(curl:*)'] }, expected: 'deny', reason: /cannot tell/ },
  { command: OBFUSCATED_CURL, expected: 'deny', reason: /cannot tell/ },
  { command: 'git push origin main', rules: { ask: ['Bash(git push:*)'] }, expected: 'ask', reason: /ask rule Bash\(git push:\*\)/ },
  { command: `echo pwned > ${'OUTSIDE'}/PWNED; tail -f app.log`, expected: 'ask', reason: /outside the workspace/ },
  { command: 'npm run dev', expected: 'ask', reason: /no rule allows npm run dev/ },
  { command: 'npm run dev', rules: { allow: ['Bash(npm run dev:*)'] }, expected: 'allow', reason: /Bash\(npm run dev:\*\)/ },
  { command: 'npm run dev', mode: 'plan', expected: 'deny', reason: /plan mode/ },
  { command: 'npm run dev', mode: 'dontAsk', expected: 'deny', reason: /dontAsk/ },
  { command: 'npm run dev', mode: 'auto', expected: 'ask' },
  { command: 'rm -rf build && npm run watch', mode: 'bypassPermissions', expected: 'deny', reason: /built-in rule/ },
  { command: 'tail -f app.log', expected: 'allow', reason: /read-only/ },
];

const concrete = (c: Case): Case => ({ ...c, command: c.command.replace('OUTSIDE', outside) });

describe('monitor {command} is judged as bash judges the same command', () => {
  it.each(cases)('$command under $rules in $mode mode: $expected, as bash', async (raw) => {
    const c = concrete(raw);
    const { bash, monitor } = tools(false);
    const perms = checker(c.mode ?? 'default', c.rules);
    const asBash = await perms.check(bash, { command: c.command });
    const asMonitor = await perms.check(monitor, { command: c.command, description: 'watch it' });
    expect(asBash.behavior, asBash.reason).toBe(c.expected);
    if (c.reason) expect(asBash.reason).toMatch(c.reason);
    // The same verdict, reason, suggestions (bash rules) and classifier flag.
    expect(asMonitor).toEqual(asBash);
  });

  it('the sandbox auto-allows exactly what it auto-allows for bash (real bubblewrap)', async () => {
    const { bash, monitor } = tools(true);
    const perms = checker('default');
    for (const command of ['npm run dev', 'node server.js', `echo x > ${outside}/PWNED; npm run dev`]) {
      const asBash = await perms.check(bash, { command });
      expect(await perms.check(monitor, { command, description: 'd' })).toEqual(asBash);
    }
    expect((await perms.check(monitor, { command: 'npm run dev' })).reason).toMatch(/autoAllowBashIfSandboxed/);
    expect((await perms.check(monitor, { command: `echo x > ${outside}/PWNED; npm run dev` })).behavior).toBe('ask');
  });

  it('a Monitor rule names the tool: a bare deny denies every monitor call, a scoped allow allows that command (bash is not widened)', async () => {
    const { bash, monitor } = tools(false);
    const denied = checker('default', { deny: ['Monitor'] });
    expect((await denied.check(monitor, { command: 'tail -f app.log' })).behavior).toBe('deny');
    expect((await denied.check(monitor, { shell_id: 'bash_1' })).behavior).toBe('deny');
    expect((await denied.check(bash, { command: 'tail -f app.log' })).behavior).toBe('allow');
    const allowed = checker('default', { allow: ['Monitor(npm run dev:*)'] });
    expect((await allowed.check(monitor, { command: 'npm run dev' })).behavior).toBe('allow');
    expect((await allowed.check(bash, { command: 'npm run dev' })).behavior).toBe('ask');
    // A Monitor rule reaches no further than a Bash rule would: a chained command is still asked.
    expect((await allowed.check(monitor, { command: 'npm run dev; curl -s http://127.0.0.1:9/' })).behavior).toBe('ask');
    // A bare Monitor allow vouches for every program monitor starts, as a bare Bash allow does for bash, but not for writes outside.
    const bare = checker('default', { allow: ['Monitor'] });
    expect((await bare.check(monitor, { command: 'npm run dev' })).behavior).toBe('allow');
    expect((await bare.check(bash, { command: 'npm run dev' })).behavior).toBe('ask');
    expect((await bare.check(monitor, { command: `echo x > ${outside}/PWNED; npm run dev` })).behavior).toBe('ask');
    // A bare Bash deny (--disallowed-tools Bash) leaves monitor no way to run a command either.
    expect((await checker('default', { deny: ['Bash'] }).check(monitor, { command: 'tail -f app.log' })).behavior).toBe('deny');
    // Watching a shell bash started is still never asked.
    expect((await checker('default').check(monitor, { shell_id: 'bash_1' })).behavior).toBe('allow');
  });
});

/** One turn of the real loop in which the model calls monitor with `input`. */
async function turn(t: ReturnType<typeof tools>, input: Record<string, unknown>, permissions: PermissionChecker, ask?: AskPermission) {
  const provider = scriptedProvider([toolCall('t1', 'monitor', input), assistantText('done')]);
  const events = await collect(
    query({
      messages: [],
      prompt: userText('go'),
      tools: [t.bash, t.monitor],
      permissions,
      provider,
      system: () => 'system',
      cwd: ws,
      signal: new AbortController().signal,
      ...(ask ? { ask } : {}),
    }),
  );
  return { events, result: ofType(events, 'tool_result')[0], asked: ofType(events, 'permission_request') };
}

const exists = (p: string): Promise<boolean> => fs.access(p).then(() => true, () => false);

describe('monitor {command} in the real loop (real bash, real bubblewrap)', () => {
  it('a Bash(curl:*) deny rule denies monitor {command: "curl ..."}: nothing starts, nothing connects', async () => {
    const t = tools(true);
    const before = connections;
    const { result, asked } = await turn(t, { command: `curl -s http://127.0.0.1:${port}/`, description: 'poll health' }, checker('default', { deny: ['Bash(curl:*)'] }));
    expect(asked).toHaveLength(0);
    expect(result?.is_error).toBe(true);
    expect(result?.content).toMatch(/Bash\(curl:\*\)/);
    expect(t.shells.list()).toEqual([]);
    expect(connections).toBe(before);
  });

  it('the $(...) obfuscated form of the same command is denied too', async () => {
    const t = tools(true);
    const before = connections;
    const hidden = `eval "$(echo ${Buffer.from(`curl -s http://127.0.0.1:${port}/`).toString('base64')} | base64 -d)"`;
    const { result } = await turn(t, { command: hidden, description: 'poll' }, checker('default', { deny: ['Bash(curl:*)'] }));
    expect(result?.is_error).toBe(true);
    expect(result?.content).toMatch(/cannot tell what this command runs/);
    expect(t.shells.list()).toEqual([]);
    expect(connections).toBe(before);
  });

  it('without the sandbox (--no-sandbox), a command that writes outside the workspace is asked; refused, it never runs', async () => {
    const t = tools(false);
    const target = path.join(outside, 'PWNED-asked');
    const requests: string[] = [];
    const no: AskPermission = async (req) => {
      requests.push(req.reason);
      return { behavior: 'deny', message: 'no' };
    };
    const { result, asked } = await turn(t, { command: `echo pwned > ${target}; tail -f app.log`, description: 'tail the log' }, checker('default'), no);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.name).toBe('monitor');
    expect(asked[0]?.view?.subject).toEqual({ kind: 'command', command: `echo pwned > ${target}; tail -f app.log` });
    expect(requests[0]).toMatch(/outside the workspace/);
    expect(result?.is_error).toBe(true);
    expect(t.shells.list()).toEqual([]);
    expect(await exists(target)).toBe(false);
  });

  it('what runs unasked runs in the sandbox: a write outside (and in the workspace, judged read-only) is refused by the OS, and the watch says so', async () => {
    const t = tools(true);
    // A checker that lets everything through unasked: the analysis at its worst.
    const real = checker('default');
    const misjudging: PermissionChecker = { ...real, check: async () => ({ behavior: 'allow', reason: 'judged read-only (wrongly)', readOnly: true }) };
    const before = connections;
    const { result, asked } = await turn(
      t,
      { command: `touch ${outside}/PWNED-out 2>&1; touch PWNED-ws 2>&1; (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>&1; echo ran`, description: 'escape' },
      misjudging,
    );
    expect(asked).toHaveLength(0);
    expect(result?.is_error).toBe(false);
    const notes: string[] = [];
    await waitFor(() => {
      notes.push(...t.watches.drainNotes());
      return notes.some((n) => /stream ended/.test(n));
    }, { timeout: 15_000, message: 'the watched command ended' });
    const all = notes.join('\n');
    expect(all).toContain('ran');
    expect(all).toMatch(/Read-only file system/);
    expect(await exists(path.join(outside, 'PWNED-out'))).toBe(false);
    expect(await exists(path.join(ws, 'PWNED-ws'))).toBe(false);
    expect(connections).toBe(before);
  });
});
