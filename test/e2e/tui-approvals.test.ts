import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Approvals in the built cairn, in a real terminal, on the offline model: what a person typing sees.

const { start } = cairnTerminals();
const startCairn = (args = '', files: Record<string, string> = {}, size: { columns?: number; rows?: number } = {}) => start({ args, files, ...size });

const localSettings = (dir: string): Promise<string> => fs.readFile(path.join(dir, '.cairn', 'settings.local.json'), 'utf8');
const promptLine = (screen: string): string => screen.split('\n').find((l) => l.startsWith('│ >')) ?? '';

describe.skipIf(!TmuxTerminal.available())('approvals in a real terminal', () => {
  it('a draft typed at 5 keys/s across the moment an approval appears answers nothing and saves no rule; then y approves', async () => {
    // --no-sandbox: this is about the approval itself; with the sandbox on, a workspace command runs without one.
    const { term, ws } = await startCairn('--no-sandbox');
    term.type('run touch made.txt');
    term.keys('Enter');
    await term.waitForText('› run touch made.txt');
    // Keep typing as the approval appears: y, a and p are all in the sentence.
    const draft = 'yank the path please';
    let appearedWhileTyping = false;
    for (const ch of draft) {
      term.type(ch);
      await new Promise((r) => setTimeout(r, 200));
      appearedWhileTyping ||= term.screen().includes('Allow bash?');
    }
    expect(appearedWhileTyping).toBe(true);
    const screen = await term.waitForScreen((s) => promptLine(s).includes(draft), 'the whole draft in the prompt box');
    expect(screen).toContain('Allow bash?');
    await expect(localSettings(ws.dir)).rejects.toThrow();
    await expect(fs.access(path.join(ws.dir, 'made.txt'))).rejects.toThrow();

    await term.pauseBeforeAnswering();
    term.keys('y');
    await term.waitForScreen((s) => !s.includes('Allow bash?') && /✓ bash/.test(s), 'the command to run');
    await fs.access(path.join(ws.dir, 'made.txt'));
    expect(promptLine(term.screen())).toContain(draft);
    await expect(localSettings(ws.dir)).rejects.toThrow();
  });

  it('"always in this project" on an in-workspace write is scoped: a write outside still asks, and so does a protected path', async () => {
    const { term, ws } = await startCairn();
    term.type('write hello to notes.txt');
    term.keys('Enter');
    await term.waitForText('Allow write_file?');
    await term.pauseBeforeAnswering();
    term.keys('p');
    await term.waitForText('Wrote');
    expect(JSON.parse(await localSettings(ws.dir)).permissions.allow).toEqual(['write_file(./**)']);

    const outside = path.join(path.dirname(ws.dir), 'outside.txt');
    term.type(`write bye to ${outside}`);
    term.keys('Enter');
    await term.waitForText('outside the workspace');
    expect(term.screen()).toContain('Allow write_file?');
    term.keys('Escape');
    await term.waitForText('Denied: the user interrupted');
    await expect(fs.access(outside)).rejects.toThrow();

    term.type('write [core] to .git/config');
    term.keys('Enter');
    await term.waitForText('protected path');
    term.keys('Escape');
    await term.waitForScreen((s) => (s.match(/Denied: the user interrupted/g) ?? []).length >= 2, 'the second denial');
  });

  it('an edit outside the workspace offers the file first and its folder as the second choice; each writes its own rule', async () => {
    const { term, ws } = await startCairn('', {}, { columns: 200 });
    const outside = path.join(path.dirname(ws.dir), 'tmp');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'notes.txt'), 'draft one\n');
    const rule = (tool: string, spec: string): string => `${tool}(/${outside}/${spec})`;

    term.type(`edit ${outside}/notes.txt: replace one with two`);
    term.keys('Enter');
    await term.waitForText('Allow read_file?');
    await term.pauseBeforeAnswering();
    term.keys('y');
    let screen = await term.waitForText('Allow edit_file?');
    const rows = screen.split('\n');
    const project = rows.findIndex((r) => r.includes(`Yes, always in this project (${rule('edit_file', 'notes.txt')}) (p)`));
    const folder = rows.findIndex((r) => r.includes(`Yes, always in this project, for the whole folder (${rule('edit_file', '**')}) (f)`));
    expect(project, screen).toBeGreaterThan(-1);
    expect(folder, screen).toBeGreaterThan(project);
    expect(screen).toContain(`don't ask again this session for ${rule('edit_file', 'notes.txt')} (a)`);
    await term.pauseBeforeAnswering();
    term.keys('p');
    await term.waitForScreen((s) => /✓ edit_file/.test(s), 'the edit to run');
    expect(await fs.readFile(path.join(outside, 'notes.txt'), 'utf8')).toBe('draft two\n');
    expect(JSON.parse(await localSettings(ws.dir)).permissions.allow).toEqual([rule('edit_file', 'notes.txt')]);

    // The file's rule does not reach the folder: a write beside it asks, and f remembers the folder.
    term.type(`write bye to ${outside}/other.txt`);
    term.keys('Enter');
    screen = await term.waitForText('Allow write_file?');
    expect(screen).toContain(`(${rule('write_file', 'other.txt')}) (p)`);
    await term.pauseBeforeAnswering();
    term.keys('f');
    await term.waitForScreen((s) => !s.includes('Allow write_file?') && /✓ write_file/.test(s), 'the write to run');
    expect(JSON.parse(await localSettings(ws.dir)).permissions.allow).toEqual([rule('edit_file', 'notes.txt'), rule('write_file', '**')]);

    // Now the folder is allowed: a third file there is written without asking.
    term.type(`write again to ${outside}/third.txt`);
    term.keys('Enter');
    await term.waitForScreen((s) => (s.match(/✓ write_file/g) ?? []).length >= 2, 'the second write, unasked');
    expect(term.screen()).not.toContain('Allow write_file?');
    expect(await fs.readFile(path.join(outside, 'third.txt'), 'utf8')).toBe('again\n');
  });

  it('a protected path asks under acceptEdits and a bare allow rule', async () => {
    const { term, ws } = await startCairn('--permission-mode acceptEdits --allowed-tools write_file');
    term.type('write evil to .git/hooks/pre-commit');
    term.keys('Enter');
    await term.waitForText('Allow write_file?');
    expect(term.screen()).toContain('protected path');
    term.keys('Escape');
    await term.waitForText('Denied: the user interrupted');
    await expect(fs.access(path.join(ws.dir, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
    // An ordinary file is still written without asking in acceptEdits.
    term.type('write ok to plain.txt');
    term.keys('Enter');
    await term.waitForText('Wrote');
  });

  it('at 40x10 the approval, every choice, the selection and the key hint stay on the screen', async () => {
    // --no-sandbox: this is about the approval itself; with the sandbox on, a workspace command runs without one.
    const { term, ws } = await startCairn('--no-sandbox', {}, { columns: 40, rows: 10 });
    term.type('run touch made.txt');
    term.keys('Enter');
    let screen = await term.waitForText('Allow bash?');
    for (const shown of ['› Yes (y)', '(a)', '(p)', '(n)', 'y/a/p/n']) expect(screen).toContain(shown);
    await term.pauseBeforeAnswering();
    term.keys('Down');
    screen = await term.waitForScreen((s) => /› Yes, and don.*\(a\)/.test(s), 'the second choice selected');
    expect(screen).toContain('y/a/p/n');
    expect(screen).toContain('Allow bash?');
    term.keys('Down', 'Down');
    screen = await term.waitForText('› type what to do');
    expect(screen).toContain('y/a/p/n');
    term.keys('Up', 'Up', 'Up');
    await term.waitForText('› Yes (y)');
    term.keys('Enter');
    await term.waitForScreen((s) => !s.includes('Allow bash?') && s.includes('✓ bash'), 'the command to run');
    await fs.access(path.join(ws.dir, 'made.txt'));
  });
});
