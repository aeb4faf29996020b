import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryNote } from '../../components/actions/memory-note.js';
import { withSessions } from '../helpers/session-rig.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';
import { waitFor } from '../helpers/wait-for.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

async function readOrEmpty(file: string): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}

describe('# memory shortcut', () => {
  it('asks user or project, saves to the project file with p, and never reaches the model', async () => {
    rig = await createRig();
    const { home } = await withSessions(rig);
    await rig.type('# always use pnpm here');
    await rig.press(KEYS.enter);
    let f = await rig.waitFrame((f) => f.includes('Save to user (u) or project (p) memory?'));
    expect(f).toContain('# always use pnpm here');
    // Keys other than u, p and Esc do nothing while it asks.
    await rig.press('x');
    expect(rig.frame()).toContain('Save to user (u) or project (p) memory?');
    await rig.press('p');
    const file = join(rig.dir, '.cairn', 'MEMORY.md');
    f = await rig.waitFrame((f) => f.includes('Saved to project memory'));
    expect(f.replace(/\s+/g, '')).toContain(file.replace(/\s+/g, ''));
    expect(f).not.toContain('Save to user (u)');
    expect(await readFile(file, 'utf8')).toMatch(/^- \[\d{4}-\d\d-\d\d \d\d:\d\d\] always use pnpm here$/m);
    expect(await readOrEmpty(join(home, 'memory', 'MEMORY.md'))).toBe('');
    expect(rig.session.messages).toEqual([]);
    expect(rig.store.getSnapshot().items.some((i) => i.kind === 'user')).toBe(false);
  });

  it('u saves to the user file under CAIRN_HOME', async () => {
    rig = await createRig();
    const { home } = await withSessions(rig);
    await rig.type('#prefer small commits');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Save to user (u) or project (p) memory?'));
    await rig.press('u');
    await rig.waitFrame((f) => f.includes('Saved to user memory'));
    expect(await readFile(join(home, 'memory', 'MEMORY.md'), 'utf8')).toContain('] prefer small commits');
    expect(await readOrEmpty(join(rig.dir, '.cairn', 'MEMORY.md'))).toBe('');
  });

  it('Esc cancels: nothing saved, the note back in the prompt', async () => {
    rig = await createRig();
    const { home } = await withSessions(rig);
    await rig.type('# keep it');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Save to user (u) or project (p) memory?'));
    await rig.press(KEYS.esc);
    await rig.waitFrame((f) => !f.includes('Save to user (u)') && f.includes('> # keep it'));
    await rig.press('p');
    // The p went into the prompt as text, not to a save.
    await waitFor(() => rig!.store.getSnapshot().editor.text === '# keep itp');
    expect(await readOrEmpty(join(rig.dir, '.cairn', 'MEMORY.md'))).toBe('');
    expect(await readOrEmpty(join(home, 'memory', 'MEMORY.md'))).toBe('');
  });

  it('a ## heading or a # inside the text is an ordinary prompt', () => {
    expect(memoryNote('# always use pnpm here')).toBe('always use pnpm here');
    expect(memoryNote('  #x')).toBe('x');
    expect(memoryNote('## Plan\nstep one')).toBeUndefined();
    expect(memoryNote('fix issue #12')).toBeUndefined();
    expect(memoryNote('#')).toBeUndefined();
  });
});
