import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// The three layers of memory with the built cairn and the offline model: the working history is
// compacted into a dated episodic note (found again by a later session's memory search), and
// what compaction learned goes to USER.md, which the next system prompt carries in its section.

describe('memory across sessions (offline model)', () => {
  it("a later session's memory search finds an earlier compaction's note; the preference it learned is shown, saved to USER.md and in the next system prompt", async () => {
    const ws = await tempWorkspace({ 'a.txt': 'alpha line\n'.repeat(40) });
    const env = { CAIRN_COMPACT_THRESHOLD: '200' };
    const first = await runCairn(['-p', 'I prefer short answers'], { cwd: ws.dir, home: ws.home, env });
    expect(first.code, first.stderr).toBe(0);
    // The memory tool is allowed, so compaction may save what it proposes (as a memory save would be).
    const second = await runCairn(['-c', '-p', 'read a.txt', '--allowedTools', 'memory', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env });
    expect(second.code, second.stderr).toBe(0);
    expect(ofType(second.events, 'compact')).toHaveLength(1);
    const told = ofType(second.events, 'notice').map((n) => n.message).find((m) => m.startsWith('Episodic note:'));
    expect(told).toBe(`Episodic note: .cairn/memory/${new Date().toISOString().slice(0, 10)}.md\nUSER.md + I prefer short answers  (${path.join(ws.home, 'USER.md')})`);

    // A new session (not continued): the note is not in its prompt, and the memory tool finds it.
    const later = await runCairn(['-p', 'search memory for short answers', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(later.code, later.stderr).toBe(0);
    const [search] = ofType(later.events, 'tool_result');
    expect(search?.name).toBe('memory');
    expect(search?.is_error).toBeFalsy();
    expect(search?.content).toMatch(/^1 entry in .*\.cairn\/memory \(newest first\):\n\n\d{4}-\d{2}-\d{2} \d\d:\d\d UTC: compaction \(auto\), 2 messages summarised\n {2}- The user asked: "I prefer short answers"/);

    const system = await runCairn(['--show-system'], { cwd: ws.dir, home: ws.home });
    expect(system.stdout).toContain(`# About the user from ${path.join(ws.home, 'USER.md')} (USER.md: their preferences)\n\n# User`);
    expect(system.stdout).toMatch(/- \[\d{4}-\d\d-\d\d \d\d:\d\d\] I prefer short answers/);
    expect(system.stdout).toContain(`Episodic notes: each compaction and each archived session adds a dated entry to ${path.join(ws.dir, '.cairn', 'memory')}/YYYY-MM-DD.md`);
    expect(system.stdout).not.toContain('The user asked:');
  });

  it('without a memory allow rule the proposal is only shown: USER.md stays as it was', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'alpha line\n'.repeat(40) });
    const env = { CAIRN_COMPACT_THRESHOLD: '200' };
    await runCairn(['-p', 'I prefer short answers'], { cwd: ws.dir, home: ws.home, env });
    const second = await runCairn(['-c', '-p', 'read a.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env });
    const told = ofType(second.events, 'notice').map((n) => n.message).find((m) => m.startsWith('Episodic note:'));
    expect(told).toMatch(/\nProposed, not saved \(saving memory asks in this permission mode; allow the memory tool to let compaction save them\):\n {2}USER\.md: I prefer short answers$/);
    await expect(fs.stat(path.join(ws.home, 'USER.md'))).rejects.toThrow(/ENOENT/);
  });

  it('SOUL.md and USER.md, the user\'s and the project\'s, appear in --show-system in their own sections', async () => {
    const ws = await tempWorkspace({
      '.cairn/SOUL.md': 'PROJECT-SOUL: guard the public API.',
      '.cairn/USER.md': 'PROJECT-USER: the maintainers review in pairs.',
      'AGENTS.md': 'Run the linter.',
    });
    await fs.writeFile(path.join(ws.home, 'SOUL.md'), 'HOME-SOUL: patient and terse.');
    await fs.writeFile(path.join(ws.home, 'USER.md'), 'HOME-USER: prefers British spelling.');
    const run = await runCairn(['--show-system'], { cwd: ws.dir, home: ws.home });
    expect(run.code, run.stderr).toBe(0);
    const out = run.stdout;
    const soulHome = `# Persona from ${path.join(ws.home, 'SOUL.md')} (SOUL.md: your character, mission and limits)\n\nHOME-SOUL: patient and terse.\n\n`;
    const soulProject = `# Persona from ${path.join(ws.dir, '.cairn', 'SOUL.md')} (SOUL.md: your character, mission and limits)\n\nPROJECT-SOUL: guard the public API.\n\n`;
    const userHome = `# About the user from ${path.join(ws.home, 'USER.md')} (USER.md: their preferences)\n\nHOME-USER: prefers British spelling.\n\n`;
    const userProject = `# About the user from ${path.join(ws.dir, '.cairn', 'USER.md')} (USER.md: their preferences)\n\nPROJECT-USER: the maintainers review in pairs.\n`;
    expect(out).toContain(soulHome + soulProject);
    expect(out).toContain(userHome + userProject);
    expect(out.indexOf(soulProject)).toBeLessThan(out.indexOf('Run the linter.'));
    expect(out.indexOf('Run the linter.')).toBeLessThan(out.indexOf(userHome));
  });
});
