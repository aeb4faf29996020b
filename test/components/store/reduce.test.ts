import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { parseRecording } from '../../../components/store/replay.js';
import { initialState, reduce } from '../../../components/store/reduce.js';
import type { ToolItem, TuiState } from '../../../components/store/types.js';

function fixture(name: string): AgentEvent[] {
  const file = `test/fixtures/events/${name}.jsonl`;
  return parseRecording(readFileSync(file, 'utf8'), file).map((r) => r.event);
}

function run(events: AgentEvent[], state: TuiState = initialState()): TuiState {
  return events.reduce((s, event, i) => reduce(s, { type: 'event', event, at: 1000 + i }), state);
}

const tools = (s: TuiState): ToolItem[] => s.items.filter((i): i is ToolItem => i.kind === 'tool');

describe('reduce over recorded sessions', () => {
  it('read, read, then write: a parallel batch, an approved write, the answer', () => {
    const s = run(fixture('read-read-write'));
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant']);
    const [a, b, c] = tools(s);
    expect([a?.parallel, b?.parallel, a?.batch === b?.batch]).toEqual([true, true, true]);
    expect(c).toMatchObject({ name: 'write_file', status: 'success', parallel: false });
    expect(c?.display?.kind === 'write_file' && c.display.diff).toContain('+hello');
    expect(a?.display).toMatchObject({ startLine: 1, endLine: 1, totalLines: 1 });
    expect(s.busy).toBe(false);
    expect(s.approvals).toEqual([]);
    expect(s.items.some((i) => (i.kind === 'assistant' || i.kind === 'thinking') && i.streaming)).toBe(false);
    expect(s.usage.input).toBe(20 + 130 + 208);
    expect(s.usage.output).toBe(66 + 41 + 27);
    const last = s.items[s.items.length - 1];
    expect(last?.kind === 'assistant' && last.text).toContain('Wrote `c.txt`');
  });

  it('keeps the approval queued until answered, then marks the denied card', () => {
    const events = fixture('write-denied');
    const at = events.findIndex((e) => e.type === 'permission_request');
    const waiting = run(events.slice(0, at + 1));
    expect(waiting.approvals.map((a) => a.name)).toEqual(['write_file']);
    expect(tools(waiting)[0]?.status).toBe('awaiting_approval');
    const done = run(events);
    expect(done.approvals).toEqual([]);
    expect(tools(done)[0]).toMatchObject({ status: 'denied', deniedReason: 'the user said: use d.txt instead' });
  });

  it('streams bash output into the running card', () => {
    const events = fixture('bash-echo');
    const before = events.findIndex((e) => e.type === 'tool_result');
    const running = run(events.slice(0, before));
    const card = tools(running)[0];
    expect(card?.status).toBe('running');
    expect(events.some((e) => e.type === 'tool_progress')).toBe(true);
    expect(card?.progress).toContain('one');
    expect(tools(run(events))[0]?.result).toContain('three');
  });

  it('collects thinking into one item and the text into another', () => {
    const s = run(fixture('think'));
    const kinds = s.items.map((i) => i.kind);
    expect(kinds).toEqual(['user', 'thinking', 'assistant']);
    const thinking = s.items[1];
    expect(thinking?.kind === 'thinking' && thinking.text).toContain('step by step');
  });

  it('a long stream is one assistant item that grows, then is final', () => {
    const events = fixture('stream');
    const mid = run(events.slice(0, 60));
    const streaming = mid.items.filter((i) => i.kind === 'assistant');
    expect(streaming).toHaveLength(1);
    expect(streaming[0]?.kind === 'assistant' && streaming[0].streaming).toBe(true);
    const end = run(events);
    expect(end.items.filter((i) => i.kind === 'assistant')).toHaveLength(1);
  });

  it('a retry notice drops the partial stream of the failed attempt', () => {
    const s = run([
      { type: 'user_prompt', text: 'hi' },
      { type: 'text_delta', text: 'partial ans' },
      { type: 'notice', level: 'warning', message: 'overloaded, retrying in 1s', code: 'retry' },
      { type: 'text_delta', text: 'full answer' },
    ]);
    const texts = s.items.flatMap((i) => (i.kind === 'assistant' ? [i.text] : []));
    expect(texts).toEqual(['full answer']);
    expect(s.items.some((i) => i.kind === 'notice' && i.code === 'retry')).toBe(true);
  });

  it('an aborted turn interrupts running cards and adds the terminal item', () => {
    const s = run([
      { type: 'user_prompt', text: 'run sleep 10' },
      { type: 'tool_start', id: 't1', name: 'bash', input: { command: 'sleep 10' }, parallel: false, batch: 1 },
      { type: 'terminal', reason: 'aborted', turns: 1, messages: [] },
    ]);
    expect(tools(s)[0]?.status).toBe('interrupted');
    expect(s.items[s.items.length - 1]).toMatchObject({ kind: 'terminal', reason: 'aborted' });
    expect(s.busy).toBe(false);
  });

  it("a card the user toggled keeps the user's choice when its status changes", () => {
    const start: AgentEvent = { type: 'tool_start', id: 't1', name: 'bash', input: { command: 'ls' }, parallel: false, batch: 1 };
    let s = run([start]);
    s = reduce(s, { type: 'toggle', id: tools(s)[0]!.id, currentlyExpanded: true });
    s = run([{ type: 'tool_result', id: 't1', name: 'bash', content: 'x', is_error: true, duration_ms: 5 }], s);
    expect(tools(s)[0]).toMatchObject({ status: 'error', userExpanded: false });
  });

  it('leaves unchanged items as the same objects, so memoized rows skip', () => {
    const events = fixture('read-read-write');
    const s1 = run(events.slice(0, 30));
    const s2 = reduce(s1, { type: 'event', event: { type: 'text_delta', text: 'x' }, at: 1 });
    expect(s2.items[0]).toBe(s1.items[0]);
  });
});

describe('scroll', () => {
  it('scrolling up stops following; scrolling back to the bottom follows again', () => {
    let s = initialState();
    s = reduce(s, { type: 'scroll', delta: -5, total: 100, height: 10 });
    expect(s.scroll).toEqual({ follow: false, top: 86, seenTotal: 100 });
    s = reduce(s, { type: 'scroll', delta: 3, total: 120, height: 10 });
    expect(s.scroll).toEqual({ follow: false, top: 89, seenTotal: 100 });
    s = reduce(s, { type: 'scroll', delta: 1000, total: 120, height: 10 });
    expect(s.scroll).toEqual({ follow: true });
    s = reduce(s, { type: 'scrollTo', to: 'top', total: 120, height: 10 });
    expect(s.scroll).toMatchObject({ follow: false, top: 0 });
  });
});

describe('palette', () => {
  const typed = (text: string, s: TuiState = initialState()): TuiState => reduce(s, { type: 'editor', editor: { text, cursor: text.length, pastes: [] } });

  // Skills and plugin commands arrive after the first frame and refresh the palette with a bare
  // palette action: a "/" the user already closed with Esc must stay closed (a clean-clone CI run
  // saw the palette reopen 150 ms after Esc, when the skills loaded).
  it('a palette closed with Esc stays closed when commands arrive later', () => {
    const dismissed = reduce(typed('/'), { type: 'palette', dismissedFor: '/' });
    const refreshed = reduce(dismissed, { type: 'palette' });
    expect(refreshed.palette.dismissedFor).toBe('/');
    expect(refreshed).not.toBe(dismissed);
    expect(reduce(dismissed, { type: 'palette', index: 2 }).palette).toEqual({ index: 2, dismissedFor: '/' });
  });

  it('typing something else opens it again', () => {
    const dismissed = reduce(typed('/'), { type: 'palette', dismissedFor: '/' });
    expect(typed('/h', dismissed).palette.dismissedFor).toBeUndefined();
  });
});
