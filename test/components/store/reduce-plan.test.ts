import { beforeAll, describe, expect, it } from 'vitest';
import { computeLayout } from '../../../components/app/layout.js';
import { createCommandRegistry } from '../../../components/commands/registry.js';
import { initialState, reduce } from '../../../components/store/reduce.js';
import type { TuiState } from '../../../components/store/types.js';
import { createTheme } from '../../../components/theme/theme.js';
import { planPanelLines } from '../../../components/transcript/plan-lines.js';
import { loadMarkdown } from '../../../components/markdown/render-markdown.js';
import { AgentEventSchema, type AgentEvent } from '../../../src/events.js';
import { stripAnsi } from '../../../components/markdown/styled-text.js';

// The approved plan (exit_plan_mode's plan_approved event): pinned above the prompt, folded by the
// next prompt or the key, dropped by /clear, folded when a session is resumed.

const PLAN = ['# Rename the greeting', '', ...Array.from({ length: 30 }, (_, i) => `${i + 1}. step ${i + 1}`)].join('\n');
const apply = (events: AgentEvent[], state: TuiState = initialState()): TuiState => events.reduce((s, event) => reduce(s, { type: 'event', event, at: 1 }), state);
const theme = createTheme('dark', { NO_COLOR: '1' });
const plain = (lines: string[]): string[] => lines.map((l) => stripAnsi(l));

describe('the approved plan in the store', () => {
  it('is pinned unfolded when approved, folded by the next prompt, toggled by the key, dropped by /clear', () => {
    let s = apply([{ type: 'plan_approved', plan: PLAN, mode: 'acceptEdits' }]);
    expect(s.plan).toEqual({ text: PLAN, mode: 'acceptEdits', expanded: true });
    s = apply([{ type: 'user_prompt', text: 'go on' }], s);
    expect(s.plan?.expanded).toBe(false);
    s = reduce(s, { type: 'togglePlan' });
    expect(s.plan?.expanded).toBe(true);
    s = apply([{ type: 'clear' }], s);
    expect(s.plan).toBeUndefined();
    expect(reduce(s, { type: 'togglePlan' })).toBe(s);
  });

  it('comes back folded from a recorded session; a session recorded before plans has none', () => {
    const s = reduce(initialState(), { type: 'recorded', events: [{ type: 'user_prompt', text: 'plan it' }, { type: 'plan_approved', plan: PLAN }], at: 1 });
    expect(s.plan).toEqual({ text: PLAN, expanded: false });
    expect(reduce(initialState(), { type: 'recorded', events: [{ type: 'user_prompt', text: 'hi' }], at: 1 }).plan).toBeUndefined();
  });

  it('reads from a session line with or without the mode', () => {
    expect(AgentEventSchema.parse({ type: 'plan_approved', plan: 'p' })).toEqual({ type: 'plan_approved', plan: 'p' });
    expect(AgentEventSchema.safeParse({ type: 'plan_approved', plan: 'p', mode: 'sideways' }).success).toBe(false);
  });
});

describe('the pinned plan block', () => {
  beforeAll(() => loadMarkdown());

  it('folded: one title line naming the plan, how it is carried out and the key', () => {
    const lines = plain(planPanelLines({ text: PLAN, mode: 'acceptEdits', expanded: false }, 110, theme, 12));
    expect(lines).toEqual(['▸ Approved plan: Rename the greeting · edits accepted without asking · Alt+a unfolds · /plan shows it']);
  });

  it('unfolded: the plan under its title, capped at its rows with a line pointing at /plan', () => {
    const lines = plain(planPanelLines({ text: PLAN, expanded: true }, 80, theme, 10));
    expect(lines).toHaveLength(10);
    expect(lines[0]).toBe('▾ Approved plan: Rename the greeting · Alt+a folds');
    expect(lines.some((l) => /^ {2,}1\. step 1$/.test(l))).toBe(true);
    expect(lines.join('\n')).not.toContain('# Rename');
    expect(lines[9]).toMatch(/^ {2}… \d+ more lines: \/plan shows the whole plan$/);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
  });

  it('takes rows above the prompt, and gives them up first to an approval', () => {
    const s = apply([{ type: 'plan_approved', plan: PLAN }]);
    const commands = createCommandRegistry();
    const layout = computeLayout(100, 40, s, commands);
    expect(layout.plan).toBe(layout.planMax);
    const folded = computeLayout(100, 40, reduce(s, { type: 'togglePlan' }), commands);
    expect(folded.plan).toBe(1);
    expect(folded.transcript).toBe(layout.transcript + layout.plan - 1);
  });
});
