import { describe, expect, it } from 'vitest';
import { applyToolEvent, isLive, newToolCard, nextStatus, withStatus, type CardEvent } from '../../../components/store/tool-card.js';
import type { ToolItem, ToolStatus } from '../../../components/store/types.js';

const ask: CardEvent = { type: 'ask' };
const run: CardEvent = { type: 'run' };
const ok: CardEvent = { type: 'finish', isError: false };
const failed: CardEvent = { type: 'finish', isError: true };
const deny: CardEvent = { type: 'deny' };
const interrupt: CardEvent = { type: 'interrupt' };

// Every status against every event: where the card goes. `=` marks an illegal transition (the status stays).
const table: [ToolStatus, CardEvent, ToolStatus | '='][] = [
  ['running', ask, 'awaiting_approval'],
  ['running', run, 'running'],
  ['running', ok, 'success'],
  ['running', failed, 'error'],
  ['running', deny, 'denied'],
  ['running', interrupt, 'interrupted'],
  ['awaiting_approval', ask, 'awaiting_approval'],
  ['awaiting_approval', run, 'running'],
  ['awaiting_approval', ok, 'success'],
  ['awaiting_approval', failed, 'error'],
  ['awaiting_approval', deny, 'denied'],
  ['awaiting_approval', interrupt, 'interrupted'],
  ...(['success', 'error', 'denied', 'interrupted'] as const).flatMap((done) => [ask, run, ok, failed, deny, interrupt].map((e): [ToolStatus, CardEvent, '='] => [done, e, '='])),
];

// Every status and every event, checked by the compiler against the types: a status or event added
// to the code and missing here fails the type check, and then the coverage test below.
const STATUSES = Object.keys({ running: 1, awaiting_approval: 1, success: 1, error: 1, denied: 1, interrupted: 1 } satisfies Record<ToolStatus, 1>) as ToolStatus[];
const EVENTS: Record<CardEvent['type'], CardEvent[]> = { ask: [ask], run: [run], finish: [ok, failed], deny: [deny], interrupt: [interrupt] };

const card = (status: ToolStatus): ToolItem => ({ kind: 'tool', id: 'i1', toolUseId: 't1', name: 'bash', input: {}, parallel: false, batch: 1, status, startedAt: 0, progress: '' });
const label = (e: CardEvent): string => (e.type === 'finish' ? `finish(${e.isError ? 'error' : 'ok'})` : e.type);

describe('the tool-card state machine', () => {
  it('covers every status against every event, once each', () => {
    const pairs = (rows: readonly [ToolStatus, CardEvent][]): string[] => rows.map(([from, e]) => `${from} + ${label(e)}`).sort();
    const every = STATUSES.flatMap((from) => Object.values(EVENTS).flat().map((e): [ToolStatus, CardEvent] => [from, e]));
    expect(pairs(table.map(([from, e]) => [from, e]))).toEqual(pairs(every));
  });

  it.each(table.map(([from, event, to]) => [from, label(event), to, event] as const))('%s + %s -> %s', (from, _label, to, event) => {
    expect(nextStatus(from, event)).toBe(to === '=' ? from : to);
    const before = card(from);
    // An illegal transition returns the very card it was given.
    if (to === '=' || to === from) expect(withStatus(before, event)).toBe(before);
    else expect(withStatus(before, event)).toEqual({ ...before, status: to });
  });

  it('a card starts running, at the moment its call started', () => {
    const started = newToolCard('i7', { type: 'tool_start', id: 't1', name: 'bash', input: { command: 'ls' }, parallel: false, batch: 2 }, 1234);
    expect(started).toEqual({ ...card('running'), id: 'i7', input: { command: 'ls' }, batch: 2, startedAt: 1234 });
  });

  it('only running and awaiting approval are live', () => {
    expect((['running', 'awaiting_approval', 'success', 'error', 'denied', 'interrupted'] as const).filter(isLive)).toEqual(['running', 'awaiting_approval']);
  });
});

describe('engine events on a card', () => {
  const result = { type: 'tool_result', id: 't1', name: 'bash', content: 'done', is_error: true, duration_ms: 5 } as const;

  it('a result on an interrupted card keeps it interrupted and still shows what came back', () => {
    expect(applyToolEvent(card('interrupted'), result)).toMatchObject({ status: 'interrupted', result: 'done', durationMs: 5 });
    expect(applyToolEvent(card('running'), result)).toMatchObject({ status: 'error', result: 'done' });
  });

  it('output means it runs: an unanswered ask is over', () => {
    expect(applyToolEvent(card('awaiting_approval'), { type: 'tool_progress', id: 't1', name: 'bash', content: 'hi\n' })).toMatchObject({ status: 'running', progress: 'hi\n' });
  });

  it('a denial names its reason; one for a finished card changes nothing', () => {
    const denied = { type: 'permission_denied', id: 't1', name: 'bash', reason: 'rule Bash(rm:*)' } as const;
    expect(applyToolEvent(card('awaiting_approval'), denied)).toMatchObject({ status: 'denied', deniedReason: 'rule Bash(rm:*)' });
    const done = card('success');
    expect(applyToolEvent(done, denied)).toBe(done);
  });
});
