import { describe, expect, it } from 'vitest';
import { cardTitle, toolCard } from '../../../components/transcript/tool-cards.js';
import { approvalHeadline } from '../../../components/transcript/call-view-lines.js';
import { bookkeepingLine, foldsIntoLine } from '../../../components/transcript/bookkeeping-line.js';
import { createTheme } from '../../../components/theme/theme.js';
import { stripAnsi } from '../../../components/theme/ansi.js';
import type { ToolItem } from '../../../components/store/types.js';
import type { ToolDisplay } from '../../../src/tools/display.js';
import { toolHeader } from '../../../components/transcript/item-lines.js';

const card = (display: Partial<ToolDisplay>): ToolItem => ({ display: { path: 'a.txt', diff: '', ...display } }) as unknown as ToolItem;

describe('write_file and edit_file summaries', () => {
  it('count lines in the singular and the plural', () => {
    const summary = toolCard('write_file').summary!;
    expect(summary(card({ kind: 'write_file', created: true, lines: 1 }))).toBe('created, 1 line');
    expect(summary(card({ kind: 'write_file', created: false, lines: 0 }))).toBe('wrote, 0 lines');
    expect(summary(card({ kind: 'write_file', created: true, lines: 12 }))).toBe('created, 12 lines');
    expect(toolCard('edit_file').summary!(card({ kind: 'edit_file', replacements: 1 }))).toBe('1 replacement');
  });
});

const theme = createTheme('dark', { NO_COLOR: '1' });
const bashCard = (over: Partial<ToolItem>): ToolItem => ({ kind: 'tool', id: 'c1', toolUseId: 't1', name: 'bash', input: { command: 'npm test' }, parallel: false, batch: 1, status: 'success', startedAt: 0, progress: '', ...over });

describe('what a card shows', () => {
  it('a failed command previews where it failed, not its first lines of passing output', () => {
    const output = [...Array.from({ length: 30 }, (_, i) => `ok ${i + 1}`), 'FAIL parser: expected 2 to be 3', '  at parse (src/p.ts:4)', 'ok 31', '', 'Exit code: 1'].join('\n');
    const lines = toolCard('bash').body(bashCard({ status: 'error', result: output }), 80, theme).map(stripAnsi);
    expect(lines).toContain('FAIL parser: expected 2 to be 3');
    expect(lines).toContain('Exit code: 1');
    expect(lines).not.toContain('ok 1');
  });

  it('a command that worked shows its last lines folded; the description titles the card, the command beneath', () => {
    const item = bashCard({ result: 'a\nb\nc\nd\ne', input: { command: 'npm test', description: 'Run the tests' }, view: { title: 'Run the tests', subject: { kind: 'command', command: 'npm test' } } });
    expect(toolCard('bash').folded!(item, 80, theme).map(stripAnsi)).toEqual(['… 2 earlier lines · Tab, Enter shows all', 'c', 'd', 'e']);
    expect(cardTitle(item)).toBe('Run the tests');
    expect(toolCard('bash').body(item, 80, theme).map(stripAnsi)[0]).toBe('$ npm test');
    expect(approvalHeadline({ name: 'bash', input: item.input, view: item.view! })).toBe('Allow bash: Run the tests?');
    expect(approvalHeadline({ name: 'bash', input: { command: 'ls' }, view: { title: 'ls', subject: { kind: 'command', command: 'ls' } } })).toBe('Allow bash?');
  });

  it('a command that exited 0 after the sandbox refused its network reads as a warning naming the domain, not a green ✓', () => {
    const display = { kind: 'bash' as const, command: 'curl http://a.example', exitCode: 0, sandboxRefused: { domains: ['a.example'], paths: [] } };
    const warned = stripAnsi(toolHeader(bashCard({ display, result: 'forbidden' }), 100, theme, 0, 0, false));
    expect(warned).toMatch(/^! bash /);
    expect(warned).toContain('sandbox network refused: a.example');
    const clean = stripAnsi(toolHeader(bashCard({ display: { ...display, sandboxRefused: undefined }, result: 'ok' }), 100, theme, 0, 0, false));
    expect(clean).toMatch(/^✓ bash /);
    expect(clean).not.toContain('refused');
  });

  it('an edit that ran unasked shows its diff folded; one the user approved does not repeat it', () => {
    const display = { kind: 'edit_file' as const, path: 'a.txt', replacements: 1, diff: '--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-old\n+new\n' };
    const edit = { ...bashCard({ name: 'edit_file', input: { path: 'a.txt' } }), display };
    expect(toolCard('edit_file').folded!(edit, 80, theme).map(stripAnsi)).toContain('+new');
    expect(toolCard('edit_file').folded!({ ...edit, asked: true }, 80, theme)).toEqual([]);
  });

  it('bookkeeping calls in a row fold into one line with their titles, never an empty label', () => {
    const todo = (n: number): ToolItem => bashCard({ id: `c${n}`, name: 'todo_write', input: { todos: [] }, view: { title: `${n} of 3 done`, subject: { kind: 'input' } } });
    const task = bashCard({ id: 'c9', name: 'task_update', input: { id: '2', status: 'completed' } });
    const line = stripAnsi(bookkeepingLine([todo(1), todo(2), task], 120, theme));
    expect(line).toBe('✓ todo_write ×2 2 of 3 done · task_update 2');
    expect(foldsIntoLine(todo(1), undefined)).toBe(true);
    expect(foldsIntoLine(todo(1), 'c1')).toBe(false);
    expect(foldsIntoLine({ ...todo(1), status: 'error' }, undefined)).toBe(false);
  });
});
