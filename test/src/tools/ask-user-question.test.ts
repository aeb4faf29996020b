import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_AGENTS } from '../../../src/agents/agent-definition.js';
import { parseAgentFile } from '../../../src/agents/agent-definition-loader.js';
import { userText } from '../../../src/messages.js';
import { createAgentTool } from '../../../src/agents/agent-tool.js';
import type { AgentEvent } from '../../../src/events.js';
import { claudeToolName } from '../../../src/hooks/claude-tool-names.js';
import { query } from '../../../src/loop/query.js';
import type { AskPermission, PermissionAsk } from '../../../src/permissions/ask.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createAskUserQuestionTool } from '../../../src/tools/ask-user-question.js';
import { offeredTools, type AnyTool } from '../../../src/tools/tool.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

const INPUT = {
  questions: [
    { question: 'Which database?', header: 'Database', options: [{ label: 'Postgres', description: 'relational' }, { label: 'SQLite', description: 'a file' }], multiSelect: false },
    { question: 'Which checks?', header: 'Checks', options: [{ label: 'Lint', description: '' }, { label: 'Tests', description: '' }], multiSelect: true },
  ],
};

/** Someone can answer (the call's own ask channel is used when it has one); nobody can. */
const someone = (): AskPermission => async () => ({ behavior: 'deny', message: 'the session channel was used' });
const nobody = (): undefined => undefined;

async function workspace(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-ask-')));
}

function checker(cwd: string, deny: string[] = [], mode: 'default' | 'plan' | 'dontAsk' = 'default') {
  return createPermissionChecker({ workspace: cwd, mode, rules: { allow: [], ask: [], deny }, cairnHome: cwd });
}

/** Runs one turn in which the model asks INPUT and then says "ok"; returns the events and the tool result the model got. */
async function turn(tools: AnyTool[], cwd: string, ask: AskPermission | undefined, deny: string[] = []) {
  const provider = scriptedProvider([toolCall('q1', 'ask_user_question', INPUT), assistantText('ok')]);
  const events: AgentEvent[] = [];
  for await (const e of query({ messages: [], prompt: userText('go'), provider, tools, permissions: checker(cwd, deny), ...(ask ? { ask } : {}), system: () => '', cwd, signal: new AbortController().signal, maxTurns: 3 })) events.push(e);
  const result = events.find((e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result' && e.id === 'q1');
  return { events, result, provider };
}

describe('ask_user_question', () => {
  it('puts the questions on the ask channel (a permission_request with its view) and gives the model each answer', async () => {
    const cwd = await workspace();
    const asked: PermissionAsk[] = [];
    const ask: AskPermission = async (request) => {
      asked.push(request);
      return { behavior: 'allow', answers: [{ question: 'Which database?', labels: ['SQLite'] }, { question: 'Which checks?', labels: ['Lint', 'Tests'], text: 'a smoke run' }] };
    };
    const { events, result } = await turn([createAskUserQuestionTool(checker(cwd), someone)], cwd, ask);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ id: 'q1', name: 'ask_user_question', input: INPUT, view: { title: 'Which database? (+1 more)', subject: { kind: 'question' } } });
    expect(events.some((e) => e.type === 'permission_request' && e.request_id === asked[0]?.request_id)).toBe(true);
    expect(result?.is_error).toBe(false);
    expect(result?.content).toBe('User has answered your questions: "Which database?"="SQLite", "Which checks?"="Lint, Tests, a smoke run". You can now continue with the user\'s answers in mind.');
  });

  it('a decline, and an answer naming an option that was not offered, reach the model as such', async () => {
    const cwd = await workspace();
    const declined = await turn([createAskUserQuestionTool(checker(cwd), someone)], cwd, async () => ({ behavior: 'deny' }));
    expect(declined.result?.is_error).toBe(true);
    expect(declined.result?.content).toMatch(/^the user declined to answer\./);
    const forged = await turn([createAskUserQuestionTool(checker(cwd), someone)], cwd, async () => ({
      behavior: 'allow',
      answers: [{ question: 'Which database?', labels: ['rm -rf /'] }, { question: 'Which checks?', labels: ['Lint'] }],
    }));
    expect(forged.result?.content).toContain('"rm -rf /" is not one of the options');
    expect(forged.result?.content).not.toContain('User has answered');
  });

  it('is not offered when no one can answer, nor in dontAsk mode; a deny rule in Claude Code\'s name blocks it', async () => {
    const cwd = await workspace();
    expect(offeredTools([createAskUserQuestionTool(checker(cwd), nobody)])).toEqual([]);
    expect(offeredTools([createAskUserQuestionTool(checker(cwd, [], 'dontAsk'), someone)])).toEqual([]);
    expect(offeredTools([createAskUserQuestionTool(checker(cwd, [], 'plan'), someone)])).toHaveLength(1);
    let asked = 0;
    const { result } = await turn([createAskUserQuestionTool(checker(cwd), someone)], cwd, async () => ((asked++, { behavior: 'allow', answers: [] })), ['AskUserQuestion']);
    expect(asked).toBe(0);
    expect(result?.content).toMatch(/^Permission denied: denied by rule AskUserQuestion/);
  });

  it('is AskUserQuestion to hooks and in agent tool lists', () => {
    expect(claudeToolName('ask_user_question')).toBe('AskUserQuestion');
    const parsed = parseAgentFile('asker.md', '---\nname: asker\ndescription: asks\ntools: Read, AskUserQuestion\n---\nAsk first.\n');
    expect('agent' in parsed && parsed.agent.tools).toEqual(['read_file', 'ask_user_question']);
  });

  it("a subagent's question reaches the user on the parent's channel, naming the subagent", async () => {
    const cwd = await workspace();
    const asked: PermissionAsk[] = [];
    const questionTool = createAskUserQuestionTool(checker(cwd), someone);
    const child = scriptedProvider([toolCall('cq', 'ask_user_question', INPUT), assistantText('child done')]);
    const agent = createAgentTool({
      definitions: () => BUILTIN_AGENTS,
      tools: () => [questionTool],
      permissions: () => checker(cwd),
      environment: () => '',
      cwd,
      provider: () => child,
    });
    const events: AgentEvent[] = [];
    const result = await agent.call(
      { type: 'general', task: 'ask them', description: 'ask' },
      {
        cwd,
        signal: new AbortController().signal,
        toolUseId: 'parent',
        emit: (e) => events.push(e),
        ask: async (request) => {
          asked.push(request);
          return { behavior: 'allow', answers: [{ question: 'Which database?', labels: ['Postgres'] }, { question: 'Which checks?', labels: ['Tests'] }] };
        },
      },
    );
    expect(result.content).toContain('child done');
    expect(asked[0]).toMatchObject({ name: 'ask_user_question', agent: 'general subagent' });
    expect(events.some((e) => e.type === 'subagent' && e.event.type === 'permission_request')).toBe(true);
    const childResult = child.requests[1]?.messages.at(-1);
    expect(JSON.stringify(childResult)).toContain('\\"Which database?\\"=\\"Postgres\\"');
  });
});
