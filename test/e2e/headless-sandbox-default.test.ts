import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/availability.js';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { CALC_PROJECT, commitAll, GIT_ID, startHostSite, type HostSite } from '../helpers/sandbox-task.js';

// Issue 33's "done means", headless: default mode, no settings at all, the built binary against a
// loopback Anthropic server that plays one session of a typical task. With bubblewrap working, the
// task's commands run in the sandbox and nothing is asked; writing outside the workspace, into
// .git/hooks, or reaching a host not on the allow list is refused or asked (headless: denied), every time.

const usable = (await probeSandbox()).available;

const TYPICAL = [
  'npm install',
  'npm test',
  'npm run build',
  'node scripts/report.js',
  'bash scripts/check.sh',
  "sed -i 's/return a - b/return a + b/' src/add.js",
  'npm test',
  'git add -A && git commit -q -m "fix add" && git log --oneline | head -1',
  'mkdir -p lib && mv dist/out.txt lib/ && rm lib/out.txt && ls',
];

let site: HostSite;
let api: ScriptedServer<AnthropicRequestBody> | undefined;

beforeAll(async () => {
  site = await startHostSite();
});
afterAll(async () => {
  await api?.close();
  await site.close();
});

/** One session in which the model calls bash with each command in turn, then says done. */
async function session(commands: string[], ws: { dir: string; home: string }) {
  const tool = (command: string, i: number) => anthropicReply([{ type: 'tool_use', id: `toolu_${i}`, name: 'bash', input: { command } }]);
  api = await startAnthropicServer([...commands.map(tool), anthropicReply([{ type: 'text', text: 'done' }])]);
  const run = await runCairn(['-p', 'fix the failing test', '--provider', 'anthropic', '--output-format', 'stream-json'], {
    cwd: ws.dir,
    home: ws.home,
    env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: api.url, CLAUDE_CONFIG_DIR: path.join(ws.home, 'no-claude'), ...GIT_ID },
    timeoutMs: 180_000,
  });
  await api.close();
  api = undefined;
  expect(run.code, run.stderr).toBe(0);
  const results = ofType(run.events, 'tool_result');
  expect(results, run.stderr).toHaveLength(commands.length);
  return { run, results, denied: ofType(run.events, 'permission_denied'), asked: ofType(run.events, 'permission_request') };
}

async function project(): Promise<{ dir: string; home: string }> {
  const ws = await tempWorkspace(CALC_PROJECT);
  commitAll(ws.dir);
  return ws;
}

describe.skipIf(!usable)('sandbox on by default, headless, no settings (real bubblewrap)', { timeout: 240_000 }, () => {
  it("runs a typical task's commands without asking once, and they do their work in the workspace", async () => {
    const ws = await project();
    const { results, denied, asked, run } = await session(TYPICAL, ws);
    expect(denied, JSON.stringify(denied)).toEqual([]);
    expect(asked).toEqual([]);
    const [install, failing, build, report, check, sed, passing, commit, moves] = results;
    expect(install?.is_error, install?.content).toBe(false);
    expect(failing?.content).toContain('FAIL add(2, 3) = -1');
    expect(build?.content).toContain('built');
    expect(report?.content).toContain('report: add.js');
    expect(check?.content).toContain('checked 1 tests');
    expect(sed?.is_error).toBe(false);
    expect(passing?.content).toContain('PASS add');
    expect(commit?.content).toContain('fix add');
    expect(moves?.is_error, moves?.content).toBe(false);
    expect(await fs.readFile(path.join(ws.dir, 'src/add.js'), 'utf8')).toContain('return a + b');
    // The commit holds the edit and nothing the sandbox put in place while it ran.
    const committed = execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: ws.dir, encoding: 'utf8' }).trim().split('\n');
    expect(committed.filter((f) => f !== 'package-lock.json')).toEqual(['src/add.js']);
    expect(existsSync(path.join(ws.dir, 'lib'))).toBe(true);
    expect(existsSync(path.join(ws.dir, 'lib/out.txt'))).toBe(false);
    // Each one ran because the sandbox contains it (the read-only ones because they are read-only).
    const decisions = ofType(run.events, 'permission_decision').filter((d) => d.name === 'bash');
    expect(decisions).toHaveLength(TYPICAL.length);
    for (const d of decisions) expect([d.input, d.verdict, d.by].join(' ')).toMatch(/ allow (sandbox|cairn)$/);
    expect(decisions.filter((d) => d.by === 'sandbox').length).toBeGreaterThanOrEqual(6);
  });

  it('refuses or asks for a write outside the workspace, into .git/hooks, and a host off the allow list, every time', async () => {
    const ws = await project();
    const target = path.join(site.outside, 'escaped.txt');
    const hook = path.join(ws.dir, '.git/hooks/pre-commit');
    const attempts = [
      `touch ${target}`, // seen outside: asked (headless: denied)
      `python3 -c "open('${target}', 'w').write('x')"`, // not seen: the sandbox refuses it
      'cp scripts/check.sh .git/hooks/pre-commit', // seen: protected, asked
      `python3 -c "open('.git/hooks/pre-commit', 'w').write('#!/bin/sh')"`, // not seen: refused
      'git config core.hooksPath scripts', // .git/config is read-only inside
      `curl -s http://127.0.0.1:${site.port}/reach`, // not on the allow list: refused
    ];
    const config = await fs.readFile(path.join(ws.dir, '.git/config'), 'utf8');
    const { results, denied } = await session([...attempts, ...attempts], ws);
    expect(existsSync(target)).toBe(false);
    expect(existsSync(hook)).toBe(false);
    expect(site.hits).toEqual([]);
    expect(await fs.readFile(path.join(ws.dir, '.git/config'), 'utf8')).toBe(config);
    // Each attempt, both times: asked (headless, so denied) or run in the sandbox and refused there.
    const askedFor = new Set(denied.map((d) => d.id));
    const outcome = (i: number): string => {
      const result = results[i];
      if (result !== undefined && askedFor.has(result.id) && /Permission denied/.test(result.content)) return 'asked';
      // (curl without -f exits 0 on the proxy's 403; the result still says what was refused.)
      return /The sandbox refused/.test(result?.content ?? '') ? 'refused' : `ran: ${result?.content}`;
    };
    const outcomes = results.map((_r, i) => outcome(i));
    expect(outcomes.slice(0, attempts.length)).toEqual(outcomes.slice(attempts.length));
    for (const [i, o] of outcomes.entries()) expect(o, attempts[i % attempts.length]).toMatch(/^(asked|refused)$/);
    // What the analysis can see is asked; what it cannot, the sandbox refuses.
    expect(outcomes.slice(0, 4)).toEqual(['asked', 'refused', 'asked', 'refused']);
    expect(results[5]?.content).toContain('The sandbox refused network access to 127.0.0.1');
  });
});
