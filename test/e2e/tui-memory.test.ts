import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicStream, type AnthropicRequestBody } from '../helpers/anthropic-server.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// /memory in the built cairn, in a real terminal (tmux): the list of instruction files, and one
// opened in $EDITOR, here a small script that reads a line from the terminal and appends it.

const { startAnthropic } = cairnTerminals();

const EDITOR_SCRIPT = '#!/bin/sh\necho "EDITOR-RUNNING on $1"\nIFS= read -r line\nprintf \'%s\\n\' "$line" >> "$1"\n';

/** A user home with ~/.claude files, and the editor script; made before cairn starts (HOME is fixed then). */
async function userSide() {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-memory-')));
  const home = path.join(base, 'user');
  await fs.mkdir(path.join(home, '.claude', 'agents'), { recursive: true });
  await fs.writeFile(path.join(home, '.claude', 'CLAUDE.md'), 'USER-WIDE NOTE.\n');
  await fs.writeFile(path.join(home, '.claude', 'agents', 'mine.md'), '---\nname: mine\ndescription: The user’s own agent\ntools: Read\n---\nMine.');
  const editor = path.join(base, 'append-a-line.sh');
  await fs.writeFile(editor, EDITOR_SCRIPT, { mode: 0o755 });
  return { home, editor };
}

const systemText = (body: AnthropicRequestBody): string => (body.system ?? []).map((b) => b.text).join('\n');

describe.skipIf(!TmuxTerminal.available())('/memory in a real terminal', () => {
  it('lists the instruction files; opening one runs $EDITOR on the terminal, comes back intact, and the next request has the edit', async () => {
    const user = await userSide();
    const big = `BIG-RULE ${'x'.repeat(41_000)}`;
    const { term, ws, server } = await startAnthropic(() => ({ chunks: anthropicStream({ content: [{ type: 'text', text: 'noted' }] }) }), {
      files: { 'CLAUDE.md': 'PROJECT-RULE. See @docs/style.md\n', 'docs/style.md': 'STYLE-RULE.\n', '.claude/rules/big.md': big },
      env: { HOME: user.home, EDITOR: user.editor, VISUAL: '' },
      columns: 140,
      rows: 45,
    });
    term.type('/memory');
    term.keys('Enter');
    const listed = await term.waitForText('Instruction files in the context (4):');
    expect(listed).toMatch(/1 {2}user {6}~\/\.claude\/CLAUDE\.md {2}15 chars/);
    expect(listed).toMatch(/2 {2}project {3}CLAUDE\.md {2}\d+ chars/);
    expect(listed).toMatch(/3 {2}imported {2}docs\/style\.md {2}11 chars {2}\(imported by CLAUDE\.md\)/);
    expect(listed).toMatch(/4 {2}rule {6}\.claude\/rules\/big\.md {2}41,009 chars \(over 40,000: sent whole with every request\)/);
    expect(listed).toMatch(/5 {2}local {5}CLAUDE\.local\.md {2}\(this project, yours alone; not created yet\)/);
    expect(listed).toContain('Problems:');
    expect(listed).toMatch(/Instruction file .*big\.md is 41,009 characters/);

    term.type('/memory 2');
    term.keys('Enter');
    // The editor has the terminal: cairn left the alternate screen and the script's output shows.
    await term.waitForScreen((s) => s.includes(`EDITOR-RUNNING on ${path.join(ws.dir, 'CLAUDE.md')}`), 'the editor running');
    expect(term.alternateOn()).toBe(false);
    // What is typed goes to the editor, line by line (the terminal is in cooked mode again).
    term.type('ADDED-IN-EDITOR');
    term.keys('Enter');
    const back = await term.waitForScreen((s) => s.includes('CLAUDE.md: saved') && s.includes('Ask cairn'), 'cairn back');
    expect(term.alternateOn()).toBe(true);
    expect(back).not.toContain('EDITOR-RUNNING');
    expect(back).toContain('Instruction files in the context (4):');
    expect(await fs.readFile(path.join(ws.dir, 'CLAUDE.md'), 'utf8')).toBe('PROJECT-RULE. See @docs/style.md\nADDED-IN-EDITOR\n');

    // Keys reach cairn again (raw mode): a prompt goes out with the edited file in the system prompt.
    term.type('hello');
    term.keys('Enter');
    await term.waitForText('noted');
    const request = server.requests.at(-1);
    expect(request && systemText(request.body)).toContain('PROJECT-RULE. See @docs/style.md\nADDED-IN-EDITOR');

    // /agents shows what start-up loaded, ~/.claude/agents included.
    term.type('/agents');
    term.keys('Enter');
    const agents = await term.waitForText('mine — The user’s own agent');
    expect(agents).toContain(path.join(user.home, '.claude', 'agents', 'mine.md'));
  });

  it('Ctrl+C in the editor is the editor’s: cairn stays, says how the editor ended, and takes keys again', async () => {
    const user = await userSide();
    const { term, ws } = await startAnthropic(() => ({ chunks: anthropicStream({ content: [{ type: 'text', text: 'still here' }] }) }), {
      files: { 'CLAUDE.md': 'PROJECT-RULE.\n' },
      env: { HOME: user.home, EDITOR: user.editor, VISUAL: '' },
    });
    term.type('/memory CLAUDE.md');
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes(`EDITOR-RUNNING on ${path.join(ws.dir, 'CLAUDE.md')}`), 'the editor running');
    term.keys('C-c');
    const back = await term.waitForScreen((s) => /Editing CLAUDE\.md: .*(SIGINT|code 130)/.test(s) && s.includes('Ask cairn'), 'cairn back after Ctrl+C');
    expect(back).not.toContain('shell$');
    expect(term.alternateOn()).toBe(true);
    expect(await fs.readFile(path.join(ws.dir, 'CLAUDE.md'), 'utf8')).toBe('PROJECT-RULE.\n');
    term.type('hello');
    term.keys('Enter');
    await term.waitForText('still here');
  });

  it('an editor that cannot be found is said, and cairn carries on', async () => {
    const user = await userSide();
    const { term } = await startAnthropic(() => ({ chunks: anthropicStream({ content: [{ type: 'text', text: 'ok' }] }) }), {
      files: { 'CLAUDE.md': 'PROJECT-RULE.\n' },
      env: { HOME: user.home, EDITOR: 'no-such-editor-xyz', VISUAL: '' },
    });
    term.type('/memory CLAUDE.local');
    term.keys('Enter');
    const screen = await term.waitForText('no-such-editor-xyz was not found');
    expect(screen).toContain('Ask cairn');
    expect(term.alternateOn()).toBe(true);
  });
});
