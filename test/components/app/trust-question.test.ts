import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { askTrustOnTerminal, IGNORED_KEYS_NOTICE, refuseOnceRefused, TRUST_PROMPT } from '../../../components/app/trust-question.js';
import { ANSWER_GUARD_MS, TYPING_IDLE_MS } from '../../../components/keys/answer-guard.js';
import { createFakeClock } from '../../../src/clock.js';

// The trust question on a terminal whose keys arrive when the test says, on a clock it moves.
function terminal(typedAhead?: string) {
  const clock = createFakeClock(1_000);
  const raw: boolean[] = [];
  const input = Object.assign(new PassThrough(), { setRawMode: (on: boolean) => raw.push(on) });
  if (typedAhead !== undefined) input.write(typedAhead);
  const output = new PassThrough();
  let screen = '';
  output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  let interrupted = 0;
  const ask = askTrustOnTerminal({ input, output, clock, interrupt: () => (interrupted += 1) });
  let answer: boolean | undefined;
  const answered = ask({ folder: '/work/cloned', wouldApply: ['/work/cloned/.claude/settings.json: hooks (SessionStart)'] }).then((yes) => (answer = yes));
  // Stream events arrive on a later turn of the event loop; this lets them land.
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    clock,
    raw,
    answered,
    answer: () => answer,
    screen: () => screen,
    interrupted: () => interrupted,
    async type(text: string, afterMs = 0) {
      clock.advance(afterMs);
      input.write(text);
      await settle();
    },
    async later(ms: number) {
      clock.advance(ms);
      await settle();
    },
  };
}

describe('the trust question', () => {
  it('y and Enter typed right after it appears are not an answer; it says so, and asks once keys count', async () => {
    const t = terminal();
    expect(t.raw).toEqual([true]);
    expect(t.screen()).toContain('Do you trust the files in /work/cloned?');
    expect(t.screen()).not.toContain(TRUST_PROMPT);
    await t.type('y', 100);
    await t.type('\r', 50);
    expect(t.answer()).toBeUndefined();
    // The guard is over, but the ignored keys were typing: the answer waits for a pause.
    await t.later(ANSWER_GUARD_MS);
    expect(t.screen()).not.toContain(TRUST_PROMPT);
    await t.later(TYPING_IDLE_MS);
    expect(t.screen()).toContain(`${IGNORED_KEYS_NOTICE}\n${TRUST_PROMPT}`);
    await t.type('y');
    await t.type('\r');
    await t.answered;
    expect(t.answer()).toBe(true);
    expect(t.raw).toEqual([true, false]);
  });

  it('keys already waiting when it appeared are ignored', async () => {
    const t = terminal('yes\r');
    await t.later(0);
    await t.later(ANSWER_GUARD_MS + TYPING_IDLE_MS);
    expect(t.answer()).toBeUndefined();
    expect(t.screen()).toContain(IGNORED_KEYS_NOTICE);
    await t.type('\r');
    await t.answered;
    expect(t.answer()).toBe(false);
  });

  it('keys that keep coming keep the answer line back; a pause lets it ask', async () => {
    const t = terminal();
    for (let i = 0; i < 6; i += 1) await t.type('y', 400);
    expect(t.screen()).not.toContain(TRUST_PROMPT);
    await t.later(TYPING_IDLE_MS);
    expect(t.screen()).toContain(TRUST_PROMPT);
  });

  it('after the guard, with nothing typed ahead, it asks without the notice and reads the line as typed', async () => {
    const t = terminal();
    await t.later(ANSWER_GUARD_MS);
    expect(t.screen().endsWith(`\n\n${TRUST_PROMPT}`)).toBe(true);
    expect(t.screen()).not.toContain(IGNORED_KEYS_NOTICE);
    await t.type('y');
    await t.type('\x7f');
    await t.type('n\r');
    await t.answered;
    expect(t.answer()).toBe(false);
    expect(t.screen().endsWith(`${TRUST_PROMPT}y\b \bn\n`)).toBe(true);

    const yes = terminal();
    await yes.later(ANSWER_GUARD_MS);
    await yes.type('Yes\r');
    await yes.answered;
    expect(yes.answer()).toBe(true);
  });

  it('Ctrl+C, even at once, interrupts as it does in a shell and trusts nothing', async () => {
    const t = terminal();
    await t.type('\x03', 10);
    await t.answered;
    expect(t.answer()).toBe(false);
    expect(t.interrupted()).toBe(1);
    expect(t.raw).toEqual([true, false]);
  });
});

describe('refuseOnceRefused (cairn -w asks about the folder it starts in, then the session about the worktree)', () => {
  it('after a no, the question is not asked again in this run; after a yes, it is', async () => {
    const asked: string[] = [];
    const answers = [true, false, true];
    const ask = refuseOnceRefused(async (q) => {
      asked.push(q.folder);
      return answers.shift() ?? true;
    });
    const q = (folder: string) => ask({ folder, wouldApply: [] });
    expect([await q('/a'), await q('/b'), await q('/c'), await q('/d')]).toEqual([true, false, false, false]);
    expect(asked).toEqual(['/a', '/b']);
  });
});
