import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, hasToolResults, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { waitFor } from '../helpers/wait-for.js';

// `cairn -p --input-format stream-json` against a protocol-exact loopback Anthropic server whose
// model calls ask_user_question: the question goes out as Claude Code's control_request line, the
// test answers with a control_response line on stdin, and the next request carries the answer.

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const QUESTIONS = {
  questions: [
    {
      question: 'Which database should the service use?',
      header: 'Database',
      options: [
        { label: 'Postgres', description: 'relational' },
        { label: 'SQLite', description: 'one file' },
      ],
      multiSelect: false,
    },
  ],
};

const asks = ({ body }: { body: AnthropicRequestBody }) =>
  hasToolResults(body) ? anthropicReply([{ type: 'text', text: 'Noted.' }]) : anthropicReply([{ type: 'tool_use', id: 'toolu_q1', name: 'ask_user_question', input: QUESTIONS }]);

function questionResult(body: AnthropicRequestBody): { content: string; isError: boolean } {
  const block = body.messages.flatMap((m) => m.content).find((b) => b['type'] === 'tool_result' && b['tool_use_id'] === 'toolu_q1');
  const content = block?.['content'];
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? '').join('') : '';
  return { content: text, isError: block?.['is_error'] === true };
}

const userLine = (text: string): string => `${JSON.stringify({ type: 'user', message: { role: 'user', content: text } })}\n`;
const answerLine = (requestId: string, response: unknown): string => `${JSON.stringify({ type: 'control_response', response: { subtype: 'success', request_id: requestId, response } })}\n`;

/** The built cairn with stdin kept open: the test writes lines as it reads the output. */
async function startStreaming(args: string[] = []) {
  const ws = await tempWorkspace();
  server = await startAnthropicServer(asks);
  const child = spawn(process.execPath, [cairnBin, '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--provider', 'anthropic', ...args], {
    cwd: ws.dir,
    env: { ...process.env, CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const lines = (): Array<Record<string, unknown>> => stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const waitLine = async (match: (l: Record<string, unknown>) => boolean, what: string, after = 0) => {
    await waitFor(() => lines().slice(after).some(match), { timeout: 30_000, message: `${what}; stdout so far:\n${stdout}\nstderr:\n${stderr}` });
    return lines().slice(after).find(match)!;
  };
  return { child, exited, lines, waitLine, stderr: () => stderr, write: (s: string) => child.stdin.write(s), server };
}

const isQuestionLine = (l: Record<string, unknown>): boolean => l['type'] === 'control_request' && (l['request'] as { subtype?: string })?.subtype === 'can_use_tool';

describe.skipIf(process.platform === 'win32')('headless questions over stream-json', () => {
  it('the question is a control_request line; a control_response line answers it and the next request carries the answer', async () => {
    const run = await startStreaming();
    run.write(userLine('set up storage'));
    const question = await run.waitLine(isQuestionLine, 'the control_request line');
    expect(question).toMatchObject({ request: { subtype: 'can_use_tool', tool_name: 'AskUserQuestion', tool_use_id: 'toolu_q1', input: QUESTIONS } });
    const requestId = question['request_id'] as string;
    expect(requestId).toMatch(/^ask_/);
    expect(run.server.requests[0]!.body.tools?.some((t) => t.name === 'ask_user_question')).toBe(true);
    expect(run.server.requests).toHaveLength(1);

    run.write(answerLine(requestId, { behavior: 'allow', updatedInput: { ...QUESTIONS, answers: { 'Which database should the service use?': 'SQLite' } } }));
    await run.waitLine((l) => l['type'] === 'result', 'the result line');
    run.child.stdin.end();
    expect(await run.exited).toBe(0);
    const result = questionResult(run.server.requests[1]!.body);
    expect(result.isError).toBe(false);
    expect(result.content).toContain('"Which database should the service use?"="SQLite"');
  });

  it('a malformed answer gets an error line naming the field and the question stays open; a decline then reaches the model', async () => {
    const run = await startStreaming();
    run.write(userLine('set up storage'));
    const question = await run.waitLine(isQuestionLine, 'the control_request line');
    const requestId = question['request_id'] as string;
    const before = run.lines().length;
    run.write(answerLine(requestId, { behavior: 'allow', updatedInput: { answers: { 'Which cache?': 'Redis' } } }));
    const error = await run.waitLine((l) => l['type'] === 'notice' && l['level'] === 'error', 'the error line', before);
    expect(error['message']).toBe(
      `--input-format stream-json: stdin line 2: the answer to ${requestId} does not fit: updatedInput.answers: "Which cache?" is not a question that was asked. The question is still open: send a corrected control_response, or {"behavior":"deny"} to decline it.`,
    );
    expect(run.server.requests).toHaveLength(1);
    run.write(answerLine(requestId, { behavior: 'deny', message: 'pick whatever is simplest' }));
    await run.waitLine((l) => l['type'] === 'result', 'the result line');
    run.child.stdin.end();
    expect(await run.exited).toBe(0);
    const result = questionResult(run.server.requests[1]!.body);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^the user declined to answer and said: pick whatever is simplest\./);
  });

  it('without stream-json input the tool is not offered', async () => {
    const ws = await tempWorkspace();
    server = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'Done.' }]));
    const run = await runCairn(['-p', 'set up storage', '--output-format', 'stream-json', '--provider', 'anthropic'], { cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url } });
    expect(run.code, run.stderr).toBe(0);
    const tools = server.requests[0]!.body.tools?.map((t) => t.name) ?? [];
    expect(tools).toContain('read_file');
    expect(tools).not.toContain('ask_user_question');
  });
});
