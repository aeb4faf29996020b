import { afterEach, describe, expect, it } from 'vitest';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());


describe('tool cards', () => {
  it('groups one parallel batch under a header and marks each card', async () => {
    rig = await createRig({ files: { 'a.txt': 'a\n', 'b.txt': 'b\nb\n' } });
    rig.store.enqueue({ type: 'user_prompt', text: 'read both' });
    rig.store.enqueue({ type: 'tool_start', id: 't1', name: 'read_file', input: { path: 'a.txt' }, parallel: true, batch: 1 });
    rig.store.enqueue({ type: 'tool_start', id: 't2', name: 'read_file', input: { path: 'b.txt' }, parallel: true, batch: 1 });
    let f = await rig.waitFrame((f) => f.includes('2 tools running together'));
    expect(f).toMatch(/┃ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] read_file a\.txt/);
    expect(f).toMatch(/┃ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] read_file b\.txt/);
    rig.store.enqueue({ type: 'tool_result', id: 't2', name: 'read_file', content: '1\tb', is_error: false, duration_ms: 1200, display: { kind: 'read_file', path: 'b.txt', startLine: 1, endLine: 2, totalLines: 2 } });
    f = await rig.waitFrame((f) => f.includes('✓ read_file b.txt'));
    // Independent: one done, the other still spinning.
    expect(f).toMatch(/┃ [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] read_file a\.txt/);
    expect(f).toContain('lines 1-2 of 2 · 1.2s');
    rig.store.enqueue({ type: 'tool_result', id: 't1', name: 'read_file', content: 'nope', is_error: true, duration_ms: 3 });
    f = await rig.waitFrame((f) => f.includes('2 tools ran together'));
    expect(f).toContain('✗ read_file a.txt');
    expect(f).toContain('⎿ nope');
  });

  it('bash streams its last lines while running and folds on success to its last three', async () => {
    rig = await createRig();
    await rig.type('run for i in 1 2 3 4 5 6 7 8 9; do echo out$i; done');
    await rig.press(KEYS.enter);
    await rig.idle();
    const f = rig.frame();
    expect(f).toMatch(/✓ bash for i in/);
    // Folded, a command that worked shows how it ended: its last lines, not its first or nothing.
    expect(f).toContain('⎿ out9');
    expect(f).toContain('⎿ out7');
    expect(f).not.toContain('⎿ out6');
    rig.store.enqueue({ type: 'tool_start', id: 'b1', name: 'bash', input: { command: 'make' }, parallel: false, batch: 9 });
    rig.store.enqueue({ type: 'tool_progress', id: 'b1', name: 'bash', content: Array.from({ length: 20 }, (_, i) => `step ${i + 1}`).join('\n') + '\n' });
    const running = await rig.waitFrame((f) => f.includes('step 20'));
    expect(running).toContain('⎿ … 14 earlier lines');
    expect(running).not.toContain('step 14\n');
  });

  it('an edit that ran unasked shows its diff folded too; Space in selection mode toggles cards', async () => {
    // The project's rule (what "always in this project" saves) lets it run: nobody saw an approval, so the folded card shows the change.
    rig = await createRig({ files: { 'c.txt': 'old\n' }, rows: 30, settings: { permissions: { allow: ['write_file(./**)'] } } });
    await rig.type('write hello to c.txt');
    await rig.press(KEYS.enter);
    await rig.idle();
    let f = rig.frame();
    expect(f).toContain('✓ write_file c.txt');
    expect(f).toContain('-old');
    expect(f).toContain('+hello');
    expect(rig.app.lastFrame()).toContain('\x1b[32m+hello');
    await rig.press(KEYS.tab);
    await rig.waitFrame(() => rig!.store.getSnapshot().focus === 'transcript');
    const expanded = () => rig!.store.getSnapshot().items.find((i) => i.kind === 'tool' && i.name === 'write_file' && i.status === 'success' && i.userExpanded !== undefined);
    const card = () => { const c = expanded(); return c?.kind === 'tool' ? c : undefined; };
    await rig.press(' ');
    f = await rig.waitFrame(() => card()?.userExpanded === true);
    expect(f).toContain('+hello');
    await rig.press(' ');
    await rig.waitFrame(() => card()?.userExpanded === false);
    await rig.press(KEYS.esc);
    await rig.waitFrame(() => rig!.store.getSnapshot().focus === 'editor');
  });

  it('Up/Down move the selection over cards; Ctrl+O toggles focus', async () => {
    rig = await createRig({ files: { 'a.txt': 'a\n', 'b.txt': 'b\n' }, rows: 30 });
    await rig.type('read a.txt read b.txt');
    await rig.press(KEYS.enter);
    await rig.idle();
    await rig.press(KEYS.ctrlO);
    await rig.waitFrame(() => rig!.store.getSnapshot().selectedId !== undefined);
    const last = rig.store.getSnapshot().selectedId;
    await rig.press(KEYS.up);
    await rig.waitFrame(() => rig!.store.getSnapshot().selectedId !== last);
    await rig.press(' ');
    const f = await rig.waitFrame((f) => f.includes('read lines 1-1 of 1'));
    expect(f.indexOf('read lines')).toBeLessThan(f.indexOf('┃ ✓ read_file b.txt'));
    expect(f.indexOf('┃ ✓ read_file a.txt')).toBeLessThan(f.indexOf('read lines'));
    await rig.press(KEYS.ctrlO);
    await rig.waitFrame(() => rig!.store.getSnapshot().focus === 'editor');
  });
});
