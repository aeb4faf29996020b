import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply, type AnthropicRequestBody } from '../helpers/anthropic-server.js';
import { cairnBin } from '../helpers/run-cairn.js';
import { listSessions } from '../../src/session/session-list.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Managing sessions in the built cairn, in a real terminal, against a loopback Anthropic server:
// /rename (header, terminal title, /resume after a restart, --resume NAME) and /fork (both
// sessions resumable, each with its own history, as the server receives it).

const SLOW = { timeout: 120_000 };
const { startAnthropic } = cairnTerminals();

/** The text of every user message the request carries (tool results aside). */
function userTexts(body: AnthropicRequestBody): string[] {
  return body.messages.filter((m) => m.role === 'user').flatMap((m) => m.content.filter((b) => b['type'] === 'text').map((b) => String(b['text'])));
}
const lastPrompt = (body: AnthropicRequestBody): string => userTexts(body).at(-1) ?? '';
const answerTo = (body: AnthropicRequestBody) => anthropicReply([{ type: 'text', text: `Answer to ${lastPrompt(body).split(/\s/)[0] ?? ''}.` }]);

async function ask(term: TmuxTerminal, prompt: string): Promise<void> {
  term.type(prompt);
  term.keys('Enter');
  await term.waitForScreen((s) => s.includes(`Answer to ${prompt}.`) && s.includes('Ask cairn'), `the answer to ${prompt}`);
}

async function restart(term: TmuxTerminal, args = ''): Promise<void> {
  term.keys('C-d');
  await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt');
  term.tmux('send-keys', 'C-l');
  await term.waitForScreen((s) => !s.includes('cairn --resume'), 'a clear screen');
  term.type(`node ${cairnBin} --provider anthropic ${args}`);
  term.keys('Enter');
  await term.waitForText('Ask cairn');
}

describe.skipIf(!TmuxTerminal.available())('/rename and /fork in a real terminal', () => {
  it('/rename names the session in the header and the terminal title; after a restart /resume and --resume NAME find it', SLOW, async () => {
    const { term, ws } = await startAnthropic(answerTo, { columns: 120, rows: 36 });
    await ask(term, 'alpha');
    term.type('/rename release-notes');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Named this session "release-notes"'), 'the rename said');
    expect(term.screen().split('\n')[0]).toMatch(/cairn · release-notes · /);
    expect(term.tmux('display-message', '-p', '#{pane_title}').trim()).toBe('cairn · release-notes');

    await restart(term);
    term.type('/resume');
    term.keys('Enter');
    const picker = await term.waitForScreen((s) => s.includes('Resume a session'), 'the picker');
    expect(picker).toMatch(/msgs? {2}\[release-notes\] alpha/);
    // Typing filters: a word of no session leaves none, the name finds it again.
    term.type('zzz');
    await term.waitForText('No session matches "zzz"');
    term.keys('BSpace', 'BSpace', 'BSpace');
    term.type('release');
    await term.waitForScreen((s) => /› .*\[release-notes\] alpha/.test(s), 'the named session selected');
    term.keys('Escape');
    await term.waitForScreen((s) => !s.includes('Resume a session'), 'the picker closed');

    await restart(term, '--resume release-notes');
    await term.waitForScreen((s) => /› alpha/.test(s) && s.includes('Answer to alpha.') && /cairn · release-notes · /.test(s.split('\n')[0] ?? ''), 'the named session resumed, its name in the header');
    const sessions = await listSessions(ws.home, ws.dir);
    expect(sessions.map((s) => s.name)).toEqual(['release-notes']);
  });

  it('/fork continues in a new session; the old one keeps its history and both resume', SLOW, async () => {
    const { term, ws, server } = await startAnthropic(answerTo, { columns: 120, rows: 36 });
    await ask(term, 'alpha');
    const [original] = await listSessions(ws.home, ws.dir);
    term.type('/fork');
    term.keys('Enter');
    await term.waitForText(`Forked from session ${original!.id}`);
    await ask(term, 'beta');
    expect(userTexts(server.requests.at(-1)!.body)).toEqual(['alpha', 'beta']);

    const sessions = await listSessions(ws.home, ws.dir);
    expect(sessions).toHaveLength(2);
    const fork = sessions.find((s) => s.id !== original!.id)!;
    expect(sessions.find((s) => s.id === original!.id)!.messageCount).toBe(original!.messageCount);
    expect(fork.messageCount).toBeGreaterThan(original!.messageCount);

    // The old session goes on from alpha alone; the fork from alpha and beta.
    await restart(term, `--resume ${original!.id}`);
    await ask(term, 'gamma');
    expect(userTexts(server.requests.at(-1)!.body)).toEqual(['alpha', 'gamma']);
    await restart(term, `--resume ${fork.id}`);
    await ask(term, 'delta');
    expect(userTexts(server.requests.at(-1)!.body)).toEqual(['alpha', 'beta', 'delta']);
  });
});

describe.skipIf(!TmuxTerminal.available())('/export in a real terminal', () => {
  it('writes the prompts, answers and tool calls as Markdown, and the event stream with --format json', SLOW, async () => {
    const { term, ws } = await startAnthropic((body) =>
      JSON.stringify(body.messages).includes('"tool_result"')
        ? anthropicReply([{ type: 'text', text: 'Answer to alpha.' }])
        : anthropicReply([{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.txt' } }]),
    { columns: 120, rows: 36, files: { 'a.txt': 'LINE-ONE\nLINE-TWO\n' } });
    await ask(term, 'alpha');
    term.type('/export out.md');
    term.keys('Enter');
    await term.waitForText('Exported 1 prompt to');
    const md = await fs.readFile(path.join(ws.dir, 'out.md'), 'utf8');
    expect(md).toMatch(/## Prompt\n\nalpha\n/);
    expect(md).toContain('### Tool call: read_file');
    expect(md).toContain('"path": "a.txt"');
    expect(md).toContain('LINE-ONE');
    expect(md).toMatch(/### Answer\n\nAnswer to alpha\./);
    term.type('/export out.jsonl --format json');
    term.keys('Enter');
    await term.waitForText('(the event stream, one JSON event a line)');
    const lines = (await fs.readFile(path.join(ws.dir, 'out.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(lines[0]!.type).toBe('session_header');
    expect(lines.map((l) => l.type)).toEqual(expect.arrayContaining(['user_prompt', 'tool_start', 'tool_result', 'assistant']));
  });
});
