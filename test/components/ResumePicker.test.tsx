import { utimes } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { sessionFile } from '../../src/session/session-paths.js';
import { SessionWriter } from '../../src/session/session-writer.js';
import { withSessions } from '../helpers/session-rig.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

/** A session file as cairn writes it: `prompts` exchanges, last touched `ageMs` ago. */
function writeSession(home: string, cwd: string, id: string, prompts: string[], ageMs: number): Promise<void> {
  const file = sessionFile(home, cwd, id);
  const writer = SessionWriter.create(file, { id, cwd, created: new Date(Date.now() - ageMs).toISOString() });
  for (const text of prompts) {
    writer.append({ type: 'user_prompt', text });
    writer.append({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `ok: ${text}` }] } });
    writer.append({ type: 'terminal', reason: 'completed', turns: 1, messages: [] });
  }
  writer.close();
  const when = new Date(Date.now() - ageMs);
  return utimes(file, when, when);
}

async function rigWithSessions() {
  rig = await createRig({ rows: 30, columns: 100 });
  const s = await withSessions(rig);
  await writeSession(s.home, rig.dir, 'aaaa1111-parser', ['fix the parser bug', 'and add a test'], 3 * 60_000);
  await writeSession(s.home, rig.dir, 'bbbb2222-pnpm', ['add a pnpm workspace'], 2 * 3600_000);
  await writeSession(s.home, rig.dir, 'cccc3333-docs', ['write docs for the cli', 'shorter', 'thanks'], 26 * 3600_000);
  return { rig, ...s };
}

const selectedLine = (f: string): string => f.split('\n').find((l) => l.trimStart().startsWith('›')) ?? '';

describe('resume picker', () => {
  it('/resume lists the sessions newest first with age and message count; Up/Down move, Enter resumes', async () => {
    const { rig, switched } = await rigWithSessions();
    await rig.type('/resume');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('Resume a session'));
    const rows = f.split('\n').filter((l) => /msgs?/.test(l));
    expect(rows.map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      '› 3m ago 4 msgs fix the parser bug',
      '2h ago 2 msgs add a pnpm workspace',
      '1d ago 6 msgs write docs for the cli',
    ]);
    await rig.press(KEYS.down);
    await rig.waitFrame((f) => selectedLine(f).includes('add a pnpm workspace'));
    await rig.press(KEYS.down, KEYS.down);
    // Wraps around to the top.
    await rig.waitFrame((f) => selectedLine(f).includes('fix the parser bug'));
    await rig.press(KEYS.up);
    await rig.waitFrame((f) => selectedLine(f).includes('write docs for the cli'));
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => !f.includes('Resume a session'));
    await expect.poll(() => switched).toEqual(['cccc3333-docs']);
  });

  it('typing filters, Backspace widens again, Enter picks the match', async () => {
    const { rig, switched } = await rigWithSessions();
    await rig.type('/resume');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Resume a session'));
    await rig.type('pnpm');
    const f = await rig.waitFrame((f) => f.includes('filter: pnpm'));
    expect(f).toContain('add a pnpm workspace');
    expect(f).not.toContain('fix the parser bug');
    expect(f).not.toContain('write docs');
    await rig.type('x');
    await rig.waitFrame((f) => f.includes('No session matches "pnpmx"'));
    await rig.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace);
    await rig.waitFrame((f) => f.includes('fix the parser bug') && f.includes('write docs'));
    await rig.type('docs');
    await rig.waitFrame((f) => selectedLine(f).includes('write docs for the cli'));
    await rig.press(KEYS.enter);
    await expect.poll(() => switched).toEqual(['cccc3333-docs']);
    // The filter went to the picker, not the prompt.
    expect(rig.store.getSnapshot().editor.text).toBe('');
  });

  it('Esc closes without resuming; the prompt works again', async () => {
    const { rig, switched } = await rigWithSessions();
    await rig.type('/resume');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Resume a session'));
    await rig.press(KEYS.esc);
    await rig.waitFrame((f) => !f.includes('Resume a session'));
    await rig.type('hello');
    await rig.waitFrame((f) => f.includes('> hello'));
    expect(switched).toEqual([]);
  });

  it('/sessions lists them as a notice; /resume <id prefix> resumes directly; the current session is refused', async () => {
    rig = await createRig({ rows: 30, columns: 100 });
    const s = await withSessions(rig, { currentId: 'bbbb2222-pnpm' });
    await writeSession(s.home, rig.dir, 'aaaa1111-parser', ['fix the parser bug'], 3 * 60_000);
    await writeSession(s.home, rig.dir, 'bbbb2222-pnpm', ['add a pnpm workspace'], 60_000);
    await rig.type('/sessions');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('newest first'));
    expect(f).toMatch(/bbbb2222\s+1m ago\s+2 msgs\s+add a pnpm workspace\s+\(this session\)/);
    expect(f).toMatch(/aaaa1111\s+3m ago\s+2 msgs\s+fix the parser bug/);
    await rig.type('/resume bbbb');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('That is the session you are in.'));
    await rig.type('/resume zzzz');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('No session zzzz in this workspace'));
    await rig.type('/resume aaaa');
    await rig.press(KEYS.enter);
    await expect.poll(() => s.switched).toEqual(['aaaa1111-parser']);
  });

  it('says so when the workspace has no earlier sessions', async () => {
    rig = await createRig();
    await withSessions(rig);
    await rig.type('/resume');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('No earlier sessions in this workspace.'));
    expect(rig.store.getSnapshot().dialog).toBeUndefined();
  });
});

describe('resume picker while a turn runs', () => {
  it('refuses to switch until the turn is over', async () => {
    const { rig, switched } = await rigWithSessions();
    rig.store.enqueue({ type: 'user_prompt', text: 'still working' });
    await rig.type('/resume');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Resume a session'));
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('A turn is running; press Esc to interrupt it, then resume.'));
    expect(switched).toEqual([]);
  });
});
