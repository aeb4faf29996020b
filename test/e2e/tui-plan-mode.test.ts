import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply, type AnthropicRequestBody, type ScriptedResponse } from '../helpers/anthropic-server.js';
import { cairnBin } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Plan mode both ways (issue 36 item 2), in the built cairn in a real terminal against a
// protocol-exact loopback Anthropic server: the model asks to plan first (enter_plan_mode, asked
// in default mode), presents a plan (exit_plan_mode), the user approves it choosing the mode, and
// the edit that follows asks (default) or does not (accept edits). The approved plan stays pinned
// above the prompt, is in the session file, comes back with -c, and /plan shows it again.

const { startAnthropic } = cairnTerminals();

const PLAN = '# Greet in French\n\n1. Change `hello` to `bonjour` in greeting.txt\n2. Check the file reads bonjour';

/** enter_plan_mode, then exit_plan_mode with the plan, then read and edit greeting.txt, then a last word. */
function planThenEdit(_body: AnthropicRequestBody, index: number): ScriptedResponse {
  switch (index) {
    case 0:
      return anthropicReply([{ type: 'tool_use', id: 'toolu_enter', name: 'enter_plan_mode', input: {} }]);
    case 1:
      return anthropicReply([{ type: 'tool_use', id: 'toolu_exit', name: 'exit_plan_mode', input: { plan: PLAN } }]);
    case 2:
      return anthropicReply([
        { type: 'tool_use', id: 'toolu_read', name: 'read_file', input: { path: 'greeting.txt' } },
        { type: 'tool_use', id: 'toolu_edit', name: 'edit_file', input: { path: 'greeting.txt', old_string: 'hello', new_string: 'bonjour' } },
      ]);
    default:
      return anthropicReply([{ type: 'text', text: 'The greeting is French now.' }]);
  }
}

/** The session's recorded events (its one session file). */
async function sessionEvents(home: string): Promise<{ type: string; [k: string]: unknown }[]> {
  const projects = join(home, 'projects');
  const [project] = await readdir(projects);
  const dir = join(projects, project!);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.jsonl'));
  expect(files).toHaveLength(1);
  const lines = (await readFile(join(dir, files[0]!), 'utf8')).split('\n').filter(Boolean);
  return lines.map((l) => JSON.parse(l) as { type: string });
}

const approvedPlans = (events: { type: string; [k: string]: unknown }[]) => events.filter((e) => e.type === 'plan_approved').map((e) => ({ plan: e['plan'], mode: e['mode'] }));

/** Who allowed the edit, by the session's decision log: the user (asked) or the mode (accept edits). */
const editDecidedBy = (events: { type: string; [k: string]: unknown }[]) => events.filter((e) => e.type === 'permission_decision' && e['name'] === 'edit_file').map((e) => e['by']);

/** Up to the plan's approval card: the model asks to plan first, the user says yes, the plan is shown. */
async function reachPlanApproval(term: TmuxTerminal): Promise<void> {
  term.type('make the greeting French');
  term.keys('Enter');
  await term.waitForText('Switch to plan mode');
  await term.pauseBeforeAnswering();
  term.type('y');
  await term.waitForScreen((s) => s.includes('Approve this plan?') && s.includes('Yes, and accept edits without asking (e)'), 'the plan approval');
  expect(term.screen()).toContain('plan mode (shift+tab)');
  await term.pauseBeforeAnswering();
}

const pinned = (s: string): boolean => s.includes('▾ Approved plan: Greet in French');

describe.skipIf(!TmuxTerminal.available())('plan mode both ways in a real terminal', () => {
  it('approved with "yes": the plan is pinned, the edit asks first; the plan is in the session file, comes back with -c, and /plan shows it', async () => {
    const { term, ws, server } = await startAnthropic(planThenEdit, { args: '--no-sandbox', columns: 110, rows: 40, files: { 'greeting.txt': 'hello world\n' } });
    await reachPlanApproval(term);
    term.type('y');
    let screen = await term.waitForText('Allow edit_file?');
    // Approved in default mode: the edit waits for the user, with the plan pinned above the prompt.
    expect(pinned(screen)).toBe(true);
    expect(screen).toContain('default (shift+tab)');
    expect(await readFile(join(ws.dir, 'greeting.txt'), 'utf8')).toBe('hello world\n');
    await term.pauseBeforeAnswering();
    term.type('y');
    await term.waitForText('The greeting is French now.');
    expect(await readFile(join(ws.dir, 'greeting.txt'), 'utf8')).toBe('bonjour world\n');
    expect(server.requests).toHaveLength(4);

    const events = await sessionEvents(ws.home);
    expect(approvedPlans(events)).toEqual([{ plan: PLAN, mode: 'default' }]);
    expect(editDecidedBy(events)).toEqual(['user']);

    // Alt+A folds the block to its title line (Alt+P is the model picker, as in Claude Code).
    term.keys('M-a');
    screen = await term.waitForText('▸ Approved plan: Greet in French');
    expect(screen).not.toContain('▾ Approved plan');

    // Continued later: the plan is pinned again (folded), and /plan prints it in the transcript.
    term.keys('C-d');
    await term.waitForText('shell$');
    term.keys('C-l');
    term.type(`node ${cairnBin} --provider anthropic --no-sandbox -c`);
    term.keys('Enter');
    await term.waitForScreen((s) => s.includes('Ask cairn') && s.includes('▸ Approved plan: Greet in French'), 'the resumed session with its plan');
    term.type('/plan');
    term.keys('Enter');
    screen = await term.waitForText('Approved plan (each edit asks first):');
    expect(screen).toContain('Check the file reads bonjour');
  });

  it('approved with "accept edits": the edit runs without asking', async () => {
    const { term, ws, server } = await startAnthropic(planThenEdit, { args: '--no-sandbox', columns: 110, rows: 40, files: { 'greeting.txt': 'hello world\n' } });
    await reachPlanApproval(term);
    term.type('e');
    const screen = await term.waitForText('The greeting is French now.');
    expect(await readFile(join(ws.dir, 'greeting.txt'), 'utf8')).toBe('bonjour world\n');
    expect(screen).toContain('accept edits (shift+tab)');
    expect(screen).toContain('Approved plan: Greet in French · edits accepted without asking');
    expect(screen).not.toContain('Allow edit_file?');
    expect(server.requests).toHaveLength(4);
    const events = await sessionEvents(ws.home);
    expect(editDecidedBy(events)).toEqual(['mode']);
    expect(approvedPlans(events)).toEqual([{ plan: PLAN, mode: 'acceptEdits' }]);
  });

  it('/plan with no approved plan says so', async () => {
    const { term } = await startAnthropic(() => anthropicReply([{ type: 'text', text: 'ok' }]), { columns: 110, rows: 30 });
    term.type('/plan');
    term.keys('Enter');
    await term.waitForText('No plan has been approved in this session.');
  });
});
