import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_GUARD_MS, TYPING_IDLE_MS } from '../../components/keys/approval-guard.js';
import { createExitPlanModeTool } from '../../src/tools/exit-plan-mode.js';
import { allowLineOfRules, expectAskedAgain, expectWrittenUnasked, savedProjectRules } from '../helpers/approval-outcomes.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

async function askToWrite(r: Rig): Promise<string> {
  await r.type('write hello to c.txt');
  await r.press(KEYS.enter);
  const f = await r.waitFrame((f) => f.includes('Allow write_file?'), 'approval prompt');
  r.settle();
  return f;
}

describe('inline approval', () => {
  it('shows tool, path, diff preview, reason and every choice with its rule', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    const f = await askToWrite(rig);
    expect(f).toContain('c.txt');
    expect(f).toContain('-old');
    expect(f).toContain('+hello');
    expect(f).toContain('needs your approval: no rule allows write_file "c.txt"');
    expect(f).toContain('› Yes (y)');
    expect(f).toContain("Yes, and don't ask again this session for write_file(./**) (a)");
    expect(f).toContain('Yes, always in this project (write_file(./**)) (p)');
    expect(f).toContain('No, and tell cairn what to do instead (n)');
    // The prompt sits under its card, not in a modal at the bottom.
    expect(f.indexOf('write_file c.txt')).toBeLessThan(f.indexOf('Allow write_file?'));
    expect(f).toContain('waiting for approval');
  });

  it('y allows once', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' } });
    await askToWrite(rig);
    await rig.press('y');
    await rig.idle();
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('hello\n');
    // Once: the next write is asked about again, and nothing was saved.
    await expectAskedAgain(rig, 'd.txt');
    expect(await savedProjectRules(rig)).toBeUndefined();
  });

  it('a remembers the suggested rule for the session only; p saves it to the project for later sessions', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await askToWrite(rig);
    await rig.press('a');
    await rig.idle();
    await expectWrittenUnasked(rig, 'd.txt');
    expect(await allowLineOfRules(rig)).toBe('Allow: write_file(./**)');
    expect(await savedProjectRules(rig)).toBeUndefined();
    const workspace = rig.dir;
    rig.cleanup();
    // A later session in the same project: the session's rule is gone.
    rig = await createRig({ workspace, rows: 30 });
    await expectAskedAgain(rig, 'e.txt');
    rig.settle();
    await rig.press('p');
    await rig.idle();
    expect(await savedProjectRules(rig)).toEqual(['write_file(./**)']);
    await expectWrittenUnasked(rig, 'f.txt');
    rig.cleanup();
    // The next session reads it from the project's settings file.
    rig = await createRig({ workspace, rows: 30 });
    await expectWrittenUnasked(rig, 'g.txt');
  });

  it('n opens the field; its text goes back as the deny message', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await askToWrite(rig);
    await rig.press('n');
    await rig.waitFrame((f) => f.includes('type what to do instead'));
    await rig.type('use d.txt');
    await rig.waitFrame((f) => f.includes('▸ use d.txt'));
    await rig.press(KEYS.enter);
    await rig.idle();
    const f = await rig.waitFrame((f) => f.includes('Denied: the user said: use d.txt'));
    expect(f).toContain('⊘ write_file');
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('old\n');
  });

  it('a deny reason typed together with Enter in one chunk is sent whole', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await askToWrite(rig);
    await rig.press('n');
    await rig.waitFrame((f) => f.includes('type what to do instead'));
    await rig.press('use e.txt instead\r');
    await rig.idle();
    await rig.waitFrame((f) => f.includes('Denied: the user said: use e.txt instead'));
  });

  it('Esc answers No; Up/Down + Enter pick a choice', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' } });
    await askToWrite(rig);
    await rig.press(KEYS.esc);
    await rig.idle();
    await rig.waitFrame((f) => f.includes('Denied: the user interrupted'));
    await rig.type('write hello to c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('› Yes (y)'));
    rig.settle();
    await rig.press(KEYS.down);
    await rig.waitFrame((f) => f.includes("› Yes, and don't ask again"));
    await rig.press(KEYS.enter);
    await rig.idle();
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('hello\n');
    await expectWrittenUnasked(rig, 'd.txt');
  });

  it('keeps the prompt draft while the approval has the keys', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, deltaDelayMs: 1 });
    await askToWrite(rig);
    // Typed while waiting: goes nowhere near the editor.
    await rig.press('z');
    expect(rig.store.getSnapshot().editor.text).toBe('');
    await rig.press(KEYS.esc);
    await rig.idle();
    await rig.type('my draft');
    await rig.waitFrame((f) => f.includes('> my draft'));
    // A queued prompt starting while a draft is being written.
    rig.session.submit('write hello to c.txt');
    await rig.waitFrame((f) => f.includes('Allow write_file?'));
    rig.settle();
    await rig.press('y');
    await rig.idle();
    expect(rig.frame()).toContain('my draft');
    expect(rig.store.getSnapshot().editor.text).toBe('my draft');
  });

  it('answers several requests of one batch one after another, in order', async () => {
    // The project's ask rule: every read is put to the user, with no rule to remember.
    rig = await createRig({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' }, rows: 40, settings: { permissions: { ask: ['read_file'] } } });
    await rig.type('read a.txt read b.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow read_file?') && f.includes('a.txt'));
    expect(rig.store.getSnapshot().approvals[0]?.input).toEqual({ path: 'a.txt' });
    rig.settle();
    await rig.press('y');
    await rig.waitFrame(() => (rig!.store.getSnapshot().approvals[0]?.input as { path?: string } | undefined)?.path === 'b.txt');
    // The next request is a new prompt: a key right after it appears goes to the draft.
    await rig.press('y');
    expect(rig.store.getSnapshot().approvals[0]).toBeDefined();
    expect(rig.store.getSnapshot().editor.text).toBe('y');
    await rig.press(KEYS.backspace);
    rig.settle();
    // No rule to remember: only Yes and No are offered.
    expect(rig.frame()).not.toContain("don't ask again");
    await rig.press('y');
    await rig.idle();
    expect(rig.frame()).toContain('2 tools ran together');
  });
});

describe('type-ahead never answers an approval', () => {
  it('keys typed before the approval could be read go to the draft; a, p and Enter save nothing', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    rig.holdClock();
    await rig.type('write hello to c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow write_file?'));
    // Right after it appears, letters that are approval shortcuts belong to the sentence being typed.
    for (const ch of 'yank the path please') await rig.press(ch);
    await rig.press(KEYS.enter); // Enter with a draft queues the draft, as the box says
    const state = rig.store.getSnapshot();
    expect(state.approvals).toHaveLength(1);
    expect(rig.permissions.rules().allow).toEqual([]);
    expect(await savedProjectRules(rig)).toBeUndefined();
    expect(state.queued).toEqual(['yank the path please']);
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('old\n');
  });

  it('while the person keeps typing, the approval waits; after a pause y answers it', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    rig.holdClock();
    await rig.type('write hello to c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow write_file?'));
    rig.later(APPROVAL_GUARD_MS + 100); // the guard is over...
    for (const ch of 'play') {
      await rig.press(ch); // ...but each key comes within the typing pause of the one before
      rig.later(200);
    }
    expect(rig.store.getSnapshot().editor.text).toBe('play');
    expect(rig.store.getSnapshot().approvals).toHaveLength(1);
    rig.later(TYPING_IDLE_MS);
    await rig.press('y');
    await rig.idle();
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('hello\n');
    expect(rig.store.getSnapshot().editor.text).toBe('play');
  });

  it('Esc declines at once, even inside the guard', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' } });
    await rig.type('write hello to c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow write_file?'));
    await rig.press(KEYS.esc);
    await rig.idle();
    await rig.waitFrame((f) => f.includes('Denied: the user interrupted'));
  });

  it('Esc is "no, and stop": the model is told the user interrupted and the turn ends there', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await askToWrite(rig);
    await rig.press(KEYS.esc);
    await rig.idle();
    const f = await rig.waitFrame((f) => f.includes('Interrupted'));
    expect(f).toContain('⊘ write_file c.txt');
    // The turn ended: the model did not get another call to carry on with a summary.
    expect(f).not.toContain('Done, with');
    const results = rig.session.messages.flatMap((m) => m.content).filter((b) => b.type === 'tool_result');
    expect(JSON.stringify(results.at(-1))).toContain('the user interrupted');
    expect(rig.session.messages.at(-1)?.role).toBe('user');
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('old\n');
  });

  it('after Esc on an approval nothing runs by itself: a prompt queued meanwhile comes back into the editor', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await rig.type('write hello to c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow write_file?'));
    // Typed as the approval appears: the draft, and Enter queues it.
    await rig.type('list');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('queued: list'));
    await rig.press(KEYS.esc);
    await rig.idle();
    const f = await rig.waitFrame((f) => f.includes('Interrupted') && f.includes('> list'));
    expect(f).not.toContain('› list');
    expect(rig.session.queued).toEqual([]);
  });

  it('n with no reason declines and lets the model carry on', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await askToWrite(rig);
    await rig.press('n');
    await rig.waitFrame((f) => f.includes('type what to do instead'));
    await rig.press(KEYS.enter);
    await rig.idle();
    const f = await rig.waitFrame((f) => f.includes('Done, with 1 of 2 tool calls failing'));
    expect(f).toContain('Denied: the user declined');
  });

  it('an edit offers the workspace-wide rule and, as a second choice, the folder rule', async () => {
    rig = await createRig({ rows: 30, files: { 'src/b.txt': 'b\n' } });
    await rig.type('write hello to src/c.txt');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('Allow write_file?'));
    expect(f).toContain('Yes, always in this project (write_file(./**)) (p)');
    expect(f).toContain('Yes, always in this project, for the whole folder (write_file(./src/**)) (f)');
    rig.settle();
    await rig.press('f');
    await rig.idle();
    expect(await savedProjectRules(rig)).toEqual(['write_file(./src/**)']);
    // The folder, and only the folder.
    await expectWrittenUnasked(rig, 'src/d.txt');
    await expectAskedAgain(rig, 'd.txt');
  });
});

describe('approving a plan', () => {
  it('shows the plan and offers to carry on asking, or accepting edits; e switches to acceptEdits', async () => {
    rig = await createRig({ rows: 40, extraTools: (permissions) => [createExitPlanModeTool(permissions)], mode: 'plan' });
    await rig.type('propose plan: first add the parser tests, then fix the bug');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('Approve this plan?'));
    expect(f).toContain('first add the parser tests, then fix the bug');
    expect(f).toContain('Yes, and ask before each edit (y)');
    expect(f).toContain('Yes, and accept edits without asking (e)');
    expect(f).toContain('No, keep planning: tell cairn what to change (n)');
    expect(f).not.toContain('always in this project');
    rig.settle();
    await rig.press('e');
    await rig.idle();
    expect(rig.session.mode).toBe('acceptEdits');
    await rig.waitFrame((f) => /⏵⏵? acceptEdits/.test(f) || f.includes('accept edits'));
  });
});

describe('a paste during an approval', () => {
  const paste = (text: string): string => `\x1b[200~${text}\x1b[201~`;

  it('goes to the draft, whatever letters it holds, and answers nothing', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await askToWrite(rig);
    await rig.press(paste('yes, and please'));
    await rig.waitFrame((f) => f.includes('> yes, and please'));
    // A one-letter paste is text too, not the y shortcut.
    await rig.press(paste(' y'));
    await rig.waitFrame((f) => f.includes('> yes, and please y'));
    // Text the terminal did not bracket, in one read, is a paste as well.
    await rig.press('ap');
    await rig.waitFrame((f) => f.includes('> yes, and please yap'));
    expect(rig.store.getSnapshot().approvals).toHaveLength(1);
    expect(rig.permissions.rules().allow).toEqual([]);
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('old\n');
    rig.settle();
    await rig.press('y');
    await rig.idle();
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('hello\n');
  });

  it('goes into the "what to do instead" field when it has the focus', async () => {
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30 });
    await askToWrite(rig);
    await rig.press('n');
    await rig.waitFrame((f) => f.includes('type what to do instead'));
    await rig.press(paste('use d.txt\nand keep c.txt'));
    await rig.waitFrame((f) => f.includes('▸ use d.txt and keep c.txt'));
    expect(rig.store.getSnapshot().editor.text).toBe('');
    await rig.press(KEYS.enter);
    await rig.idle();
    await rig.waitFrame((f) => f.includes('Denied: the user said: use d.txt and keep c.txt'));
  });
});
