import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

// 47 lines of output with the two failures near the end, then a failing exit.
// (FA""IL: the command itself does not hold the text searched for.)
const failingTest = 'run for i in $(seq 1 40); do echo "ok $i"; done; echo "FA""IL parser: expected 2 to be 3"; echo "ok 41"; echo "FA""IL lexer: unexpected token"; exit 1';

describe('the full view', () => {
  it("Enter on a card shows its whole output; / finds, n goes to the next match, q returns to the transcript", async () => {
    // In the sandbox, as cairn runs by default: the command runs contained, without asking.
    rig = await createRig({ rows: 24, sandbox: true });
    await rig.type(failingTest);
    await rig.press(KEYS.enter);
    await rig.idle();
    let f = await rig.waitFrame((f) => f.includes('✗ bash'));
    expect(f).toContain('Tab, Enter shows all');
    // The card previews where it failed, not its first lines of passing output.
    expect(f).toContain('FAIL parser: expected 2 to be 3');
    expect(f).not.toContain('⎿ ok 1\n');

    await rig.press(KEYS.tab);
    await rig.press(KEYS.enter);
    f = await rig.waitFrame((f) => f.includes('q back'));
    expect(f).toContain('ok 1');
    expect(f).not.toContain('FAIL parser');
    await rig.press('/');
    await rig.waitFrame((f) => f.includes('Enter finds'));
    // Typed fast (or over a busy link) the word and Enter arrive in one read: still a search.
    await rig.press('FAIL\r');
    f = await rig.waitFrame((f) => f.includes('match 1/2'));
    expect(f).toContain('FAIL parser: expected 2 to be 3');
    await rig.press('n');
    f = await rig.waitFrame((f) => f.includes('match 2/2'));
    expect(f).toContain('FAIL lexer: unexpected token');
    await rig.press(KEYS.home);
    await rig.waitFrame((f) => f.includes('ok 1') && f.includes('match 2/2'));

    await rig.press('q');
    f = await rig.waitFrame((f) => !f.includes('q back'));
    expect(f).toMatch(/✗.*bash/);
    expect(rig.store.getSnapshot().focus).toBe('transcript');
    // Space still folds the card.
    await rig.press(' ');
    await rig.waitFrame(() => rig!.store.getSnapshot().items.some((i) => i.kind === 'tool' && i.userExpanded === false));
  });

  it('v in an approval shows the whole file it would write; the approval waits behind it and Esc leaves the view, not the approval', async () => {
    rig = await createRig({ rows: 24 });
    const rows = Array.from({ length: 80 }, (_, i) => `row ${i + 1}`).join('\n');
    rig.session.submit(`write ${rows} to big.txt`);
    const f = await rig.waitFrame((f) => f.includes('Allow write_file?'));
    expect(f).toContain('v shows all');
    expect(f).not.toContain('row 80');
    rig.settle();
    await rig.press('v');
    await rig.waitFrame((f) => f.includes('the approval waits behind this view'));
    await rig.press(KEYS.end);
    await rig.waitFrame((f) => f.includes('+row 80'));
    await rig.press(KEYS.esc);
    await rig.waitFrame((f) => f.includes('Allow write_file?') && f.includes('› Yes (y)'));
    expect(rig.store.getSnapshot().approvals).toHaveLength(1);
    await rig.press('y');
    await rig.idle();
    expect((await readFile(join(rig.dir, 'big.txt'), 'utf8')).split('\n')[79]).toBe('row 80');
  });

  it('keys inside the view never reach the approval behind it or the draft', async () => {
    rig = await createRig({ rows: 24, files: { 'c.txt': 'old\n' } });
    await rig.type('write hello to c.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow write_file?'));
    rig.settle();
    await rig.press('v');
    await rig.waitFrame((f) => f.includes('q back'));
    await rig.press('y', 'a', 'p', KEYS.enter);
    expect(rig.store.getSnapshot().approvals).toHaveLength(1);
    expect(rig.store.getSnapshot().editor.text).toBe('');
    expect(await readFile(join(rig.dir, 'c.txt'), 'utf8')).toBe('old\n');
    await rig.press('q');
    await rig.waitFrame((f) => f.includes('› Yes (y)'));
  });
});
