import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/session/session-loader.js';
import { projectDir } from '../../src/session/session-paths.js';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

describe('auto-compaction end to end (offline model, CAIRN_COMPACT_THRESHOLD=200)', () => {
  it('compacts before the second turn: summary + verbatim tail, full history kept in the session file, episodic note written', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'alpha line\n'.repeat(40), 'b.txt': 'beta\n' });
    const env = { CAIRN_COMPACT_THRESHOLD: '200' };
    const first = await runCairn(['-p', 'read a.txt'], { cwd: ws.dir, home: ws.home, env });
    expect(first.code).toBe(0);
    const second = await runCairn(['-c', '-p', 'read b.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env });
    expect(second.code, second.stderr).toBe(0);

    const compact = ofType(second.events, 'compact')[0]!;
    expect(compact.trigger).toBe('auto');
    expect(compact.tokens_after).toBeLessThan(compact.tokens_before);
    expect(compact.summary).toMatch(/"read a.txt"/);
    // The tail from the last plain prompt stays verbatim.
    expect(compact.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'read b.txt' }] });

    const end = ofType(second.events, 'terminal')[0]!;
    expect(end.reason).toBe('completed');
    expect(end.result).toMatch(/Read `b.txt`: 1 line/);
    expect(JSON.stringify(end.messages)).not.toContain('alpha line');

    // The pre-compaction history is still in the file, above the boundary; loading gives the compacted one.
    const dir = projectDir(ws.home, ws.dir);
    const file = (await fs.readdir(dir)).find((n) => n.endsWith('.jsonl'));
    const raw = await fs.readFile(path.join(dir, file!), 'utf8');
    expect(raw.indexOf('alpha line')).toBeGreaterThan(0);
    expect(raw.indexOf('alpha line')).toBeLessThan(raw.indexOf('"type":"compact"'));
    const loaded = await loadSession(path.join(dir, file!));
    expect(JSON.stringify(loaded.messages)).not.toContain('alpha line');

    const notes = await fs.readdir(path.join(ws.dir, '.cairn', 'memory'));
    expect(notes[0]).toMatch(/^\d{4}-\d{2}-\d{2}\.md$/);
    expect(await fs.readFile(path.join(ws.dir, '.cairn', 'memory', notes[0]!), 'utf8')).toMatch(/compaction \(auto\), \d+ messages summarised/);

    const usage = (await fs.readFile(path.join(ws.home, 'usage.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { provider: string });
    expect(usage.length).toBeGreaterThanOrEqual(4);
    expect(usage[0]!.provider).toBe('offline');
  });

  it('--show-system prints the assembled prompt with the project instructions', async () => {
    const ws = await tempWorkspace({ 'AGENTS.md': 'Always run the linter.' });
    const run = await runCairn(['--show-system'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^You are cairn/);
    expect(run.stdout).toMatch(/Always run the linter\./);
  });
});
