import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// The seed's built-in denies, plan mode and exit_plan_mode, through the built binary on the offline model.
const MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;

async function run(prompt: string, args: string[] = []) {
  const ws = await tempWorkspace({ 'temp/keep.txt': 'keep\n', 'a.txt': 'a\n' });
  const result = await runCairn(['-p', prompt, '--output-format', 'stream-json', ...args], { cwd: ws.dir, home: ws.home });
  expect(result.code, result.stderr).toBe(0);
  return { ws, events: result.events };
}

describe('built-in deny rules hold in every mode', () => {
  for (const command of ['rm -rf temp', 'rm -r temp', 'sudo ls']) {
    it(`${command}: a permission_denied event in all four modes, and nothing removed`, async () => {
      for (const mode of MODES) {
        const { ws, events } = await run(`run ${command}`, ['--permission-mode', mode, '--allowed-tools', 'Bash']);
        const denied = ofType(events, 'permission_denied');
        expect(denied.map((d) => d.name), mode).toEqual(['bash']);
        expect(denied[0]!.reason, mode).toMatch(/ask the user to run/);
        expect(ofType(events, 'tool_result')[0]!.content, mode).toMatch(/Permission denied/);
        await fs.access(path.join(ws.dir, 'temp', 'keep.txt'));
      }
    });
  }
});

describe('plan mode', () => {
  it('runs a read-only command and denies one that changes something', async () => {
    const ok = await run('run git status', ['--permission-mode', 'plan']);
    expect(ofType(ok.events, 'permission_denied')).toEqual([]);
    expect(ofType(ok.events, 'tool_result')[0]).toMatchObject({ name: 'bash' });

    const no = await run('run touch x', ['--permission-mode', 'plan']);
    const denied = ofType(no.events, 'permission_denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]!.reason).toMatch(/plan mode/);
    // The model is told the way out, not only the refusal.
    expect(ofType(no.events, 'tool_result')[0]!.content).toMatch(/exit_plan_mode/);
    // Two sentences, each ending with a full stop (issue 30 item 14).
    expect(ofType(no.events, 'tool_result')[0]!.content).toBe(
      'Permission denied: plan mode: commands do not run until the plan is approved. When your plan is ready, present it with exit_plan_mode for the user to approve.',
    );
    await expect(fs.access(path.join(no.ws.dir, 'x'))).rejects.toThrow();
  });

  it('exit_plan_mode approved (by a rule, headless) switches the mode to default', async () => {
    const { events } = await run('propose plan: add a test for the parser', ['--permission-mode', 'plan', '--allowed-tools', 'exit_plan_mode']);
    expect(ofType(events, 'mode_change').map((e) => e.mode)).toEqual(['default']);
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ name: 'exit_plan_mode', is_error: false });
    expect(ofType(events, 'tool_result')[0]!.content).toMatch(/approved.*now default/);
  });

  it('exit_plan_mode with nobody to approve it is denied, and the mode stays plan', async () => {
    const { events } = await run('propose plan: add a test', ['--permission-mode', 'plan']);
    expect(ofType(events, 'permission_denied').map((d) => d.name)).toEqual(['exit_plan_mode']);
    expect(ofType(events, 'mode_change')).toEqual([]);
  });
});
