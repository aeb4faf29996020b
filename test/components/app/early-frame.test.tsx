import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionTail } from '../../../src/session/session-tail.js';
import type { AgentEvent } from '../../../src/events.js';
import { earlyFrameLines } from '../../../components/app/early-frame.js';
import { openingActions } from '../../../components/app/startup-notices.js';
import { stripAnsi } from '../../../components/theme/ansi.js';
import { createRig } from '../../helpers/tui-rig.js';

const rigs: Awaited<ReturnType<typeof createRig>>[] = [];
type Rig = Awaited<ReturnType<typeof createRig>>;
// What main.ts knows before the engine loads, and what the app reads from the live session.
const facts = (rig: Rig) => ({ provider: rig.session.providerName, model: rig.session.model, mode: rig.session.mode, offline: rig.session.provider.offline === true, messageCount: rig.session.messages.length });
/** `turns` prompts, each answered with `answer(n)`: a session to resume. */
function conversation(turns: number, answer: (n: number) => string): AgentEvent[] {
  return Array.from({ length: turns }, (_, n): AgentEvent[] => [
    { type: 'user_prompt', text: `question ${n}` },
    { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: answer(n) }] } },
  ]).flat();
}
const opening = (rig: Rig) => ({ offline: rig.session.provider.offline === true, messageCount: rig.session.messages.length });
afterEach(async () => {
  for (const rig of rigs.splice(0)) rig.cleanup();
});

describe('the early first frame', () => {
  it('is the frame the app draws first: same header, prompt box and status row in the same rows', async () => {
    for (const [columns, rows] of [[120, 40], [80, 24], [60, 16]] as const) {
      const rig = await createRig({ columns, rows });
      rigs.push(rig);
      // What startSessionUi puts in the store before the app's first frame.
      const problems = ['.claude/settings.json: "permissions.allow" must be a list; ignored'];
      for (const action of openingActions({ startupNotices: problems }, opening(rig), Date.now())) rig.store.dispatch(action);
      await rig.waitFrame((f) => f.includes('No provider configured'));
      const early = earlyFrameLines({ session: facts(rig), startupNotices: problems, cwd: rig.dir, themeName: 'dark', now: () => Date.now() }, columns, rows).map((l) => stripAnsi(l).trimEnd());
      const app = rig.frame().split('\n').map((l) => l.trimEnd());
      expect(early).toHaveLength(rows - 1);
      expect(early).toEqual(app);
      expect(early.at(-3)).toContain('Ask cairn');
      expect(early.join('\n')).toContain('No provider configured');
      expect(early.join('\n')).toContain('must be a list');
    }
  });
  it('shows a resumed transcript as the app does: its last turns, styled, then the notices', async () => {
    const rig = await createRig({ columns: 100, rows: 30 });
    rigs.push(rig);
    const events = conversation(1500, (n) => `Answer **${n}** with \`code\`.`);
    for (const action of openingActions({ resumedEvents: events, sessionId: 'abcdef1234' }, opening(rig), Date.now())) rig.store.dispatch(action);
    await rig.waitFrame((f) => f.includes('Resumed session abcdef12'));
    const early = earlyFrameLines({ session: facts(rig), cwd: rig.dir, resumedEvents: events, sessionId: 'abcdef1234', themeName: 'dark', now: () => Date.now() }, 100, 30);
    expect(early.map((l) => stripAnsi(l).trimEnd())).toEqual(rig.frame().split('\n').map((l) => l.trimEnd()));
    expect(early.join('\n')).toContain('question 1499');
    // Styled: the bold answer number is drawn bold, not with its asterisks.
    expect(early.join('\n')).toMatch(/\x1b\[1m1499/);
  });
  it("drawn from the end of the session's file, it is the app's frame of the whole session but for the message count", async () => {
    const rig = await createRig({ columns: 100, rows: 30 });
    rigs.push(rig);
    const events = conversation(3000, (n) => `Answer **${n}** with \`code\` and ${'words '.repeat(n % 5 === 0 ? 60 : 3)}`);
    const file = path.join(rig.dir, 'session.jsonl');
    await fs.writeFile(file, [{ type: 'session_header', version: 1, id: 'abcdef1234', cwd: rig.dir, created: '2026-11-30T00:00:00.000Z' }, ...events].map((e) => `${JSON.stringify(e)}\n`).join(''));
    const tail = await readSessionTail(file);
    expect(tail?.whole).toBe(false);
    expect(tail?.events.length).toBeLessThan(events.length / 4);
    // The app folds every event and knows the count; the early frame had only the file's end.
    for (const action of openingActions({ resumedEvents: events, sessionId: 'abcdef1234' }, { offline: true, messageCount: 6000 }, Date.now())) rig.store.dispatch(action);
    await rig.waitFrame((f) => f.includes('Resumed session abcdef12 (6000 messages).'));
    const early = earlyFrameLines({ session: { ...facts(rig), messageCount: undefined }, cwd: rig.dir, resumedEvents: tail?.events ?? [], sessionId: 'abcdef1234', themeName: 'dark', now: () => Date.now() }, 100, 30);
    const app = rig.frame().split('\n').map((l) => l.trimEnd());
    expect(early.map((l) => stripAnsi(l).trimEnd().replace('abcdef12.', 'abcdef12 (6000 messages).'))).toEqual(app);
    expect(early.join('\n')).toContain('question 2999');
  });
});
