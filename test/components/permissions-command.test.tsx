import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

describe('/permissions', () => {
  it('lists each decision with its verdict, input and what decided it (your key, the chain), then the rules', async () => {
    rig = await createRig({ rows: 40, columns: 120, decisions: {} });
    await rig.type('run touch made.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Allow bash?'), 'approval prompt');
    rig.settle();
    await rig.press('n', KEYS.enter);
    await rig.waitFrame(() => !rig!.session.busy && !rig!.frame().includes('Allow bash?'), 'the denial and the end of the turn');
    await rig.type('read made.txt');
    await rig.press(KEYS.enter);
    await rig.waitFrame(() => !rig!.session.busy && rig!.store.getSnapshot().items.some((i) => i.kind === 'tool' && i.name === 'read_file'), 'the read');
    await rig.type('/permissions');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => f.includes('Decisions (all of 2)'), 'the log');
    expect(f).toMatch(/denied\s+bash touch made\.txt · you \(no\)/);
    expect(f).toMatch(/allowed read_file \S*made\.txt · cairn: read-only/);
    expect(f).toContain('Rules:');
  });

  it('says when nothing has been decided yet, and refuses an unknown option by name', async () => {
    rig = await createRig({ rows: 30, decisions: {} });
    await rig.type('/permissions');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Decisions: none yet this session.'));
    await rig.type('/permissions frob');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Unknown /permissions option "frob"'));
  });
});
