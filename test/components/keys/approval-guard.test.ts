import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { APPROVAL_GUARD_MS, createApprovalGuard } from '../../../components/keys/approval-guard.js';
import { createStore } from '../../../components/store/create-store.js';
import type { AgentEvent } from '../../../src/events.js';

const key = (over: Partial<Key> = {}): Key => ({
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false,
  return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false,
  super: false, hyper: false, capsLock: false, numLock: false, ...over,
});

describe('the approval guard', () => {
  it('a provider that reuses a tool id: the next approval is new, and a key right after it appears goes to the draft', () => {
    let t = 0;
    const store = createStore(undefined, { now: () => t });
    const guard = createApprovalGuard(store, () => t);
    const event = (e: AgentEvent): void => store.dispatch({ type: 'event', event: e, at: t });
    const ask = (name: string): void => {
      event({ type: 'tool_start', id: 'call_0', name, input: {}, parallel: false, batch: 1 });
      event({ type: 'permission_request', id: 'call_0', name, input: {}, reason: 'r', suggestions: [] });
    };
    ask('bash');
    t += APPROVAL_GUARD_MS + 10;
    expect(guard.takesKey(store.getSnapshot(), 'y', key())).toBe(true);
    store.dispatch({ type: 'approvalAnswered', id: 'call_0', allowed: true, at: t });
    event({ type: 'tool_result', id: 'call_0', name: 'bash', content: 'ok', is_error: false, duration_ms: 1 });

    // The model's next call has the same id; it has been on screen for 50 ms.
    ask('write_file');
    t += 50;
    expect(guard.takesKey(store.getSnapshot(), 'y', key())).toBe(false);
    t += APPROVAL_GUARD_MS;
    expect(guard.takesKey(store.getSnapshot(), 'y', key())).toBe(true);
    guard.dispose();
    store.dispose();
  });
});
