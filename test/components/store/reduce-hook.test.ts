import { describe, expect, it } from 'vitest';
import type { AgentEvent, EventOf } from '../../../src/events.js';
import { initialState, reduce } from '../../../components/store/reduce.js';
import type { ToolItem, TuiState } from '../../../components/store/types.js';
import { hookNoteLines } from '../../../components/transcript/hook-lines.js';
import { createTheme } from '../../../components/theme/theme.js';

function run(events: AgentEvent[], state: TuiState = initialState()): TuiState {
  return events.reduce((s, event, i) => reduce(s, { type: 'event', event, at: 1000 + i }), state);
}

const blocked: EventOf<'hook'> = {
  type: 'hook', hook_event: 'PreToolUse', outcome: 'blocked', text: 'writes are frozen', source: '/w/.claude/settings.json', command: './no.sh', tool_id: 't1', tool_name: 'write_file',
};

describe('hook events in the transcript', () => {
  it('a hook outcome about a call goes under that card, and shows while the card is folded', () => {
    const s = run([
      { type: 'tool_start', id: 't1', name: 'write_file', input: { path: 'a.txt', content: 'x' }, parallel: false, batch: 1 },
      blocked,
      { type: 'tool_result', id: 't1', name: 'write_file', content: 'Blocked by a PreToolUse hook', is_error: true, duration_ms: 0 },
    ]);
    const card = s.items.find((i): i is ToolItem => i.kind === 'tool');
    expect(card?.hookNotes).toEqual([{ hookEvent: 'PreToolUse', outcome: 'blocked', text: 'writes are frozen', source: '/w/.claude/settings.json' }]);
    expect(s.items.filter((i) => i.kind === 'notice')).toEqual([]);
    const lines = hookNoteLines(card as ToolItem, 100, createTheme('dark', { NO_COLOR: '1' }));
    expect(lines).toEqual(['  ↳ PreToolUse hook blocked: writes are frozen · /w/.claude/settings.json']);
  });

  it('one without a card (a blocked prompt) is a notice line naming the hook file', () => {
    const s = run([{ type: 'hook', hook_event: 'UserPromptSubmit', outcome: 'blocked', text: 'no secrets in prompts', source: '/h/settings.json', command: 'x' }]);
    expect(s.items).toEqual([expect.objectContaining({ kind: 'notice', level: 'warning', message: 'UserPromptSubmit hook blocked: no secrets in prompts (/h/settings.json)' })]);
  });
});
