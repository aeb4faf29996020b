import { afterEach, describe, expect, it } from 'vitest';
import { withSessions } from '../helpers/session-rig.js';
import { createRig, KEYS } from '../helpers/tui-rig.js';

type Rig = Awaited<ReturnType<typeof createRig>>;
let rig: Rig | undefined;
afterEach(() => rig?.cleanup());

describe('compaction in the transcript', () => {
  it('a compact event is a divider with tokens before and after; Tab, Up select it and Space unfolds the summary', async () => {
    rig = await createRig({ columns: 80, rows: 20 });
    rig.store.enqueue({
      type: 'compact',
      trigger: 'auto',
      tokens_before: 12_345,
      tokens_after: 1_100,
      summary: 'The user asked to fix the parser; tests now pass.',
      messages: [],
    });
    const f = await rig.waitFrame((f) => f.includes('compacted'));
    const divider = f.split('\n').find((l) => l.includes('compacted'))!;
    expect(divider).toBe(`── compacted: 12.3k → 1.1k tokens (auto) ${'─'.repeat(80 - 41)}`);
    expect(f).not.toContain('fix the parser');
    // The status bar's context follows the compaction.
    expect(f).toContain('1.1k/200k');
    await rig.press(KEYS.tab, KEYS.up, ' ');
    await rig.waitFrame((f) => f.includes('The user asked to fix the parser; tests now pass.'));
    await rig.press(' ');
    await rig.waitFrame((f) => !f.includes('fix the parser') && f.includes('compacted: 12.3k'));
  });

  it('/compact summarises two exchanges on the offline model and draws the divider', async () => {
    rig = await createRig({ columns: 80, rows: 30, files: { 'a.txt': 'one\ntwo\n' } });
    await withSessions(rig);
    await rig.type('/compact');
    await rig.press(KEYS.enter);
    await rig.waitFrame((f) => f.includes('Nothing to compact yet.'));
    for (const prompt of ['read a.txt', 'hello there']) {
      await rig.type(prompt);
      await rig.press(KEYS.enter);
      await rig.idle();
    }
    const before = rig.session.messages.length;
    await rig.type('/compact keep the file names');
    await rig.press(KEYS.enter);
    const f = await rig.waitFrame((f) => /── compacted: [\d.k]+ → [\d.k]+ tokens \(manual\) ─/.test(f));
    expect(f).toContain('Compacting the conversation (keep the file names)');
    expect(rig.session.messages.length).toBeLessThan(before);
  });
});
