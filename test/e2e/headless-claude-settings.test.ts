import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// A project laid out as a real Claude Code project, settings at all three levels, run end to end
// through the built cairn on the offline model: each call decides as Claude Code's documentation says.
const PROJECT = {
  '.claude/settings.json': JSON.stringify({
    permissions: {
      allow: ['Bash(touch made-*)', 'Bash(printenv CAIRN_FIXTURE_VAR)', 'Edit(/src/**)', 'mcp__github__*', 'WebSearch'],
      deny: ['Read(/secrets/**)', 'Read(./exercises/solutions/**)', 'Bash(echo ")")'],
      ask: ['Bash(git push *)'],
    },
    env: { CAIRN_FIXTURE_VAR: 'from-settings' },
    outputStyle: 'Explanatory',
  }),
  '.claude/settings.local.json': JSON.stringify({ permissions: { deny: ['Read(.env)'], additionalDirectories: ['../shared-lib'] } }),
  'secrets/key.txt': 'KEY',
  'exercises/solutions/a.md': 'SOLUTION',
  'api/.env': 'TOKEN=1',
  'src/a.ts': 'export {};\n',
  'README.md': 'readme\n',
};

let ws: { dir: string; home: string };
let env: Record<string, string>;

beforeAll(async () => {
  ws = await tempWorkspace(PROJECT);
  const claudeDir = path.join(path.dirname(ws.dir), 'user-claude');
  await fs.mkdir(path.join(path.dirname(ws.dir), 'shared-lib'), { recursive: true });
  await fs.writeFile(path.join(path.dirname(ws.dir), 'shared-lib', 'index.ts'), 'SHARED\n');
  await fs.mkdir(claudeDir, { recursive: true });
  await fs.writeFile(path.join(claudeDir, 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(curl *)'] } }));
  // The user accepted Claude Code's trust dialog for this folder.
  await fs.writeFile(path.join(claudeDir, '.claude.json'), JSON.stringify({ projects: { [ws.dir]: { hasTrustDialogAccepted: true } } }));
  env = { CLAUDE_CONFIG_DIR: claudeDir };
});

async function decide(prompt: string): Promise<{ verdict: 'allowed' | 'denied by rule' | 'not allowed'; events: AgentEvent[]; stderr: string }> {
  // The verdicts of the permission rules themselves: with the sandbox on, a workspace command would run without asking.
  const run = await runCairn(['-p', prompt, '--output-format', 'stream-json', '--no-sandbox'], { cwd: ws.dir, home: ws.home, env });
  expect(run.code, run.stderr).toBe(0);
  const denied = ofType(run.events, 'permission_denied')[0];
  expect(ofType(run.events, 'tool_start'), `${prompt}: the model made its call`).not.toHaveLength(0);
  const verdict = denied === undefined ? 'allowed' : /denied by rule/.test(denied.reason) ? 'denied by rule' : 'not allowed';
  return { verdict, events: run.events, stderr: run.stderr };
}

// -p asks nobody: what would be asked is not allowed (and never "denied by rule").
const TABLE: Array<[prompt: string, expected: 'allowed' | 'denied by rule' | 'not allowed']> = [
  ['run touch made-by-rule', 'allowed'],
  ['run touch other-file', 'not allowed'],
  ['run echo ")"', 'denied by rule'],
  ['run git push origin main', 'not allowed'],
  ['run curl https://example.com', 'denied by rule'],
  ['read secrets/key.txt', 'denied by rule'],
  ['read exercises/solutions/a.md', 'denied by rule'],
  ['read api/.env', 'denied by rule'],
  ['read README.md', 'allowed'],
  ['read ../shared-lib/index.ts', 'allowed'],
  ['write changed to src/a.ts', 'allowed'],
  ['write changed to README.md', 'not allowed'],
];

describe('a Claude Code project, headless, end to end', () => {
  it.each(TABLE)('%s: %s', async (prompt, expected) => {
    expect((await decide(prompt)).verdict).toBe(expected);
  });

  it("the project's env reaches commands; its unsupported keys are named once on stderr", async () => {
    const { verdict, events, stderr } = await decide('run printenv CAIRN_FIXTURE_VAR');
    expect(verdict).toBe('allowed');
    expect(ofType(events, 'tool_result')[0]?.content).toContain('from-settings');
    expect(stderr.match(/cairn does not support "outputStyle"/g)).toHaveLength(1);
    expect(stderr).toContain(path.join(ws.dir, '.claude', 'settings.json'));
  });
});

describe('defaultMode dontAsk from a settings file', () => {
  it('starts (it used to stop cairn), reports the mode in the init line, and denies what no rule allows', async () => {
    const p = await tempWorkspace({ '.claude/settings.local.json': JSON.stringify({ permissions: { defaultMode: 'dontAsk', allow: ['mcp__github__*'] } }) });
    // dontAsk itself, not the sandbox's own yes to a workspace command.
    const run = await runCairn(['-p', 'run touch x', '--output-format', 'stream-json', '--no-sandbox'], { cwd: p.dir, home: p.home, env: { CLAUDE_CONFIG_DIR: path.join(p.home, 'no-claude') } });
    expect(run.code, run.stderr).toBe(0);
    const init = JSON.parse(run.stdout.split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(init).toMatchObject({ type: 'system', subtype: 'init', permissionMode: 'dontAsk' });
    expect(ofType(run.events, 'permission_denied')[0]?.reason).toMatch(/dontAsk/);
  });
});
