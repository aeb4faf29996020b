import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply, type AnthropicRequestBody } from '../helpers/anthropic-server.js';
import { HOSTILE_KINDS, hostileRepo, pwnedBy, type HostileKind } from '../helpers/hostile-repos.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { git, repoWithUncommittedChange } from '../helpers/test-git.js';

// /review and /security-review: the shipped skills get the diff cairn read through safe-git; the
// model reports findings with report_findings; each finding is a card (Enter: the place, f: fix it).


const SAFE = "export function user(db, id) {\n  // one row\n  return db.query('SELECT * FROM users WHERE id = ?', [id]);\n}\n";
const UNSAFE = "export function user(db, id) {\n  // one row\n  return db.query(`SELECT * FROM users WHERE id = ${id}`);\n}\n";

/** A repository with src/db.js committed safe, then changed to build its SQL from input (uncommitted). */
const fixtureRepo = (ws: { dir: string }): Promise<void> => repoWithUncommittedChange(ws.dir, 'src/db.js', SAFE, UNSAFE);

const FINDINGS = [
  { file: 'src/db.js', line: 3, severity: 'high', title: 'SQL built from the id by interpolation', why: 'An id like 1 OR 1=1 reads every user: injection.', fix: 'Pass id as a bound parameter: query(sql, [id]).' },
  { file: 'src/db.js', line: 2, severity: 'low', title: 'Comment says one row', why: 'Nothing limits the result to one row.', fix: 'Add LIMIT 1 or fix the comment.' },
];

const firstUserText = (body: AnthropicRequestBody): string => JSON.stringify(body.messages[0]?.content ?? []);

describe('/review in a real terminal, against a loopback Anthropic server', () => {
  const { startAnthropic } = cairnTerminals();

  it.skipIf(!TmuxTerminal.available())('shows each finding as a card: Enter opens the place, f sends a prompt naming the file and line', async () => {
    const { term, server } = await startAnthropic(
      (body, index) => {
        if (index === 0) return anthropicReply([{ type: 'tool_use', id: 'toolu_findings', name: 'report_findings', input: { findings: FINDINGS, summary: 'Not ready: one injection.' } }]);
        if (index === 1) return anthropicReply([{ type: 'text', text: 'Two findings; the injection must be fixed.' }]);
        return anthropicReply([{ type: 'text', text: `Fixing it now (${body.messages.length} messages).` }]);
      },
      { prepare: fixtureRepo, columns: 110, rows: 40 },
    );
    term.type('/review');
    term.keys('Enter');
    await term.waitForText('2 findings (1 high, 1 low)', 60_000);
    await term.waitForText('injection must be fixed', 60_000);
    const screen = term.screen();
    expect(screen).toContain('● high src/db.js:3 SQL built from the id by interpolation');
    expect(screen).toContain('● low src/db.js:2 Comment says one row');
    expect(screen).toContain('fix: Pass id as a bound parameter');
    expect(screen).toContain('Not ready: one injection.');
    // The skill went out with the diff cairn read itself (safe-git), the changed line in it.
    const sent = firstUserText(server.requests[0]?.body as AnthropicRequestBody);
    expect(sent).toContain('Run the \\"review\\" skill');
    expect(sent).toContain('git diff HEAD (staged and unstaged changes)');
    expect(sent).toContain('+  return db.query(`SELECT * FROM users WHERE id = ${id}`);');

    // Tab selects the newest card (the low finding); ↑ the high one; Enter: its place in the file.
    term.keys('Tab');
    term.keys('Up');
    term.keys('Enter');
    const view = await term.waitForText('Suggested fix:', 30_000);
    expect(view).toContain('high finding · src/db.js:3');
    expect(view).toMatch(/▶ 3 │ {3}return db\.query\(`SELECT \* FROM users WHERE id = \$\{id\}`\);/);
    term.type('q');
    await term.waitForScreen((s) => !s.includes('Suggested fix:'), 'the full view closed', 30_000);

    // f on the selected finding asks cairn to fix it: the next request names the file and line.
    term.type('f');
    await term.waitForText('Fixing it now', 60_000);
    const fix = JSON.stringify(server.requests[2]?.body.messages.at(-1));
    expect(fix).toContain('Fix the high review finding at src/db.js:3: SQL built from the id by interpolation');
    expect(fix).toContain('Suggested fix: Pass id as a bound parameter');
  }, 180_000);
});

describe('/review and /security-review, headless', () => {
  it('a range argument reviews that range; an option is refused, never passed to git', async () => {
    const ws = await tempWorkspace();
    await fixtureRepo(ws);
    git(ws.dir, 'commit', '-q', '-am', 'unsafe query');
    const env = { HOME: ws.home };
    const range = await runCairn(['-p', '/security-review HEAD~1..HEAD', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env, timeoutMs: 40_000 });
    const prompt = range.events.find((e) => e.type === 'user_prompt');
    const text = prompt?.type === 'user_prompt' ? prompt.text : '';
    expect(text).toContain('Run the "security-review" skill');
    expect(text).toContain('git diff HEAD~1..HEAD');
    expect(text).toContain('+  return db.query(`SELECT * FROM users WHERE id = ${id}`);');
    expect(text).toContain('Unsafe deserialisation');

    const option = await runCairn(['-p', `/review --output=${path.join(ws.dir, 'written')}`, '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env, timeoutMs: 40_000 });
    const refused = option.events.find((e) => e.type === 'user_prompt');
    expect(refused?.type === 'user_prompt' && refused.text).toContain('is not a branch, commit or range');
    await expect(import('node:fs/promises').then((fs) => fs.access(path.join(ws.dir, 'written')))).rejects.toThrow(/ENOENT/);
  }, 90_000);

  it.each<HostileKind>(HOSTILE_KINDS)('%s: /review reads the diff without running any program the repository names', async (kind) => {
    const repo = await hostileRepo(kind);
    const { home } = await tempWorkspace();
    const run = await runCairn(['-p', '/review', '--output-format', 'stream-json'], { cwd: repo.dir, home, env: { HOME: home }, timeoutMs: 40_000 });
    expect(run.code).toBe(0);
    const prompt = run.events.find((e) => e.type === 'user_prompt');
    const text = prompt?.type === 'user_prompt' ? prompt.text : '';
    expect(text).toContain('b.txt');
    expect(text).toContain('Untracked files, not in the diff (read them whole): ');
    expect(await pwnedBy(repo)).toBeUndefined();
  }, 60_000);
});
