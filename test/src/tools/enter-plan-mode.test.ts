import { mkdtemp, readFile, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { query } from '../../../src/loop/query.js';
import { userText } from '../../../src/messages.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionAsk, PermissionDecision } from '../../../src/permissions/types.js';
import { createBuiltinTools } from '../../../src/tools/builtin.js';
import { createEnterPlanModeTool } from '../../../src/tools/enter-plan-mode.js';
import { createExitPlanModeTool } from '../../../src/tools/exit-plan-mode.js';
import { offeredTools } from '../../../src/tools/tool.js';
import { collect, ofType } from '../../helpers/collect.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

/**
 * The model enters plan mode (asked), tries a write (denied in plan mode), presents its plan, the user
 * approves it into `planAnswer`'s mode, then the model writes two files: each asks or not per that mode.
 */
async function planned(planAnswer: PermissionDecision) {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-enter-plan-')));
  const permissions = createPermissionChecker({ workspace: cwd, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(cwd, '.home') });
  const asked: PermissionAsk[] = [];
  const events = await collect(
    query({
      messages: [],
      prompt: userText('refactor the parser'),
      tools: [...createBuiltinTools(), createEnterPlanModeTool(permissions), createExitPlanModeTool(permissions)],
      permissions,
      system: () => 'system',
      cwd,
      signal: new AbortController().signal,
      maxTurns: 10,
      provider: scriptedProvider([
        toolCall('e1', 'enter_plan_mode', {}),
        toolCall('w0', 'write_file', { path: 'early.txt', content: 'too soon\n' }),
        toolCall('x1', 'exit_plan_mode', { plan: '1. write a.txt\n2. write b.txt' }),
        toolCall('w1', 'write_file', { path: 'a.txt', content: 'a\n' }),
        toolCall('w2', 'write_file', { path: 'b.txt', content: 'b\n' }),
        assistantText('done'),
      ]),
      ask: async (request) => {
        asked.push(request);
        if (request.name === 'exit_plan_mode') return planAnswer;
        return { behavior: 'allow' };
      },
    }),
  );
  return { cwd, events, asked: asked.map((a) => a.name), permissions };
}

describe('enter_plan_mode', () => {
  it('asked in default mode; approved, the write before the plan is denied; the plan approved with "accept edits" lets the edits run unasked', async () => {
    const { cwd, events, asked, permissions } = await planned({ behavior: 'allow', mode: 'acceptEdits' });
    expect(asked).toEqual(['enter_plan_mode', 'exit_plan_mode']);
    expect(ofType(events, 'mode_change').map((e) => e.mode)).toEqual(['plan', 'acceptEdits']);
    expect(ofType(events, 'tool_result').find((r) => r.id === 'w0')?.content).toMatch(/^Permission denied: plan mode/);
    expect(permissions.mode).toBe('acceptEdits');
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(join(cwd, 'b.txt'), 'utf8')).toBe('b\n');
    await expect(readFile(join(cwd, 'early.txt'), 'utf8')).rejects.toThrow();
  });

  it('the plan approved with a plain yes: default mode, each edit asks', async () => {
    const { asked, permissions } = await planned({ behavior: 'allow' });
    expect(asked).toEqual(['enter_plan_mode', 'exit_plan_mode', 'write_file', 'write_file']);
    expect(permissions.mode).toBe('default');
  });

  it('declined, the session stays in default mode; it is not offered in plan mode; EnterPlanMode names it in rules', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-enter-plan-')));
    const permissions = createPermissionChecker({ workspace: cwd, mode: 'default', rules: { allow: [], ask: [], deny: ['EnterPlanMode'] }, cairnHome: join(cwd, '.home') });
    const tool = createEnterPlanModeTool(permissions);
    expect(await permissions.check(tool, {})).toMatchObject({ behavior: 'deny' });
    permissions.setMode('plan');
    expect(offeredTools([tool])).toEqual([]);
    const events = await collect(
      query({
        messages: [],
        prompt: userText('go'),
        tools: [createEnterPlanModeTool(createPermissionChecker({ workspace: cwd, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(cwd, '.home') }))],
        permissions: createPermissionChecker({ workspace: cwd, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(cwd, '.home') }),
        system: () => 'system',
        cwd,
        signal: new AbortController().signal,
        provider: scriptedProvider([toolCall('e1', 'enter_plan_mode', {}), assistantText('ok')]),
        ask: async () => ({ behavior: 'deny' }),
      }),
    );
    expect(ofType(events, 'mode_change')).toEqual([]);
    expect(ofType(events, 'tool_result')[0]?.content).toMatch(/the user declined/);
  });
});
