import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { repoWithUncommittedChange } from '../helpers/test-git.js';

// /review with no provider configured: the offline model's stand-in (src/providers/offline-review.ts)
// runs fixed checks on the added lines and reports them with report_findings, shown as cards.


const COMMITTED = 'export function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i.price;\n  return sum;\n}\n';
const CHANGED = 'export function total(items) {\n  let sum = 0;\n  console.log("items", items);\n  // TODO: apply discounts\n  for (const i of items) sum += i.price;\n  return sum;\n}\n';

/** src/cart.js committed, then changed (uncommitted) to add a console.log (line 3) and a TODO (line 4). */
const fixtureRepo = (ws: { dir: string }): Promise<void> => repoWithUncommittedChange(ws.dir, 'src/cart.js', COMMITTED, CHANGED);

describe('/review on the offline model, in a real terminal', () => {
  const { start } = cairnTerminals();

  it.skipIf(!TmuxTerminal.available())('shows a card per finding at file:line; f on a card sends a prompt naming the file and line', async () => {
    const { term } = await start({ prepare: fixtureRepo, env: { CLAUDE_CONFIG_DIR: '/nonexistent-claude' }, columns: 120, rows: 40 });
    term.type('/review');
    term.keys('Enter');
    await term.waitForText('2 findings (2 low)', 60_000);
    const screen = await term.waitForText('stand-in review', 60_000);
    expect(screen).toContain('● low src/cart.js:3 Debug statement left in: console.log');
    expect(screen).toContain('● low src/cart.js:4 TODO added: apply discounts');
    expect(screen).toContain('Reported 2 findings as cards');

    // Tab selects the newest card (the TODO, line 4); f asks cairn to fix it: the prompt names file and line.
    term.keys('Tab');
    term.type('f');
    const fixed = await term.waitForText('› Fix the low review finding at src/cart.js:4: TODO added: apply discounts', 60_000);
    expect(fixed).toContain('Suggested fix: Finish it in this change');
  }, 150_000);
});

describe('/review on the offline model, headless', () => {
  it('a clean diff: report_findings with no findings, and the answer says the diff looks clean', async () => {
    const ws = await tempWorkspace();
    await fixtureRepo(ws);
    await writeFile(path.join(ws.dir, 'src', 'cart.js'), COMMITTED.replace('let sum = 0;', 'let sum = 0; // running total'));
    const run = await runCairn(['-p', '/review', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: { HOME: ws.home }, timeoutMs: 40_000 });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Reported no findings to the user.');
    expect(run.stdout).toContain('No findings: the diff looks clean');
  }, 60_000);
});
