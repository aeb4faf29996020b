import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { query, type QueryParams } from '../../../src/loop/query.js';
import { userText } from '../../../src/messages.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionAsk, PermissionDecision } from '../../../src/permissions/types.js';
import { createExitPlanModeTool } from '../../../src/tools/exit-plan-mode.js';
import { collect, ofType } from '../../helpers/collect.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

const PLAN = '1. Add parser tests\n2. Fix the off-by-one';

async function planRun(answer: PermissionDecision, mode: 'plan' | 'default' = 'plan') {
  const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-plan-')));
  const permissions = createPermissionChecker({ workspace: cwd, mode, rules: { allow: [], ask: [], deny: [] }, cairnHome: join(cwd, '.home') });
  const asked: PermissionAsk[] = [];
  const params: QueryParams = {
    messages: [],
    prompt: userText('plan it'),
    tools: [createExitPlanModeTool(permissions)],
    permissions,
    system: () => 'system',
    cwd,
    signal: new AbortController().signal,
    provider: scriptedProvider([toolCall('t1', 'exit_plan_mode', { plan: PLAN }), assistantText('ok')]),
    ask: async (request) => {
      asked.push(request);
      return answer;
    },
  };
  const events = await collect(query(params));
  return { events, asked, permissions };
}

describe('exit_plan_mode', () => {
  it('asks the user with the plan; "accept edits" switches to acceptEdits', async () => {
    const { events, asked, permissions } = await planRun({ behavior: 'allow', mode: 'acceptEdits' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ name: 'exit_plan_mode', input: { plan: PLAN }, suggestions: [] });
    expect(permissions.mode).toBe('acceptEdits');
    expect(ofType(events, 'mode_change').map((e) => e.mode)).toEqual(['acceptEdits']);
    expect(ofType(events, 'tool_result')[0]!.content).toMatch(/now acceptEdits/);
  });

  it('a plain yes carries on in default mode, where each edit asks', async () => {
    const { events, permissions } = await planRun({ behavior: 'allow' });
    expect(permissions.mode).toBe('default');
    expect(ofType(events, 'mode_change').map((e) => e.mode)).toEqual(['default']);
  });

  it('no keeps planning, and the feedback reaches the model', async () => {
    const { events, permissions } = await planRun({ behavior: 'deny', message: 'also cover the lexer' });
    expect(permissions.mode).toBe('plan');
    expect(ofType(events, 'mode_change')).toEqual([]);
    expect(ofType(events, 'tool_result')[0]!.content).toMatch(/also cover the lexer/);
  });

  it('outside plan mode it asks nothing and changes nothing', async () => {
    const { asked, permissions } = await planRun({ behavior: 'allow', mode: 'bypassPermissions' }, 'default');
    expect(asked).toEqual([]);
    expect(permissions.mode).toBe('default');
  });

  it('an answer to an ordinary tool cannot switch the mode', async () => {
    const cwd = await realpath(await mkdtemp(join(tmpdir(), 'cairn-plan-')));
    const permissions = createPermissionChecker({ workspace: cwd, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(cwd, '.home') });
    const { createWriteFileTool } = await import('../../../src/tools/write-file.js');
    await collect(
      query({
        messages: [], prompt: userText('w'), tools: [createWriteFileTool()], permissions, system: () => 's', cwd, signal: new AbortController().signal,
        provider: scriptedProvider([toolCall('t1', 'write_file', { path: 'a.txt', content: 'x' }), assistantText('ok')]),
        ask: async () => ({ behavior: 'allow', mode: 'bypassPermissions' }),
      }),
    );
    expect(permissions.mode).toBe('default');
  });
});
