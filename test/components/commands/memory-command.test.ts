import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextSections } from '../../../components/commands/context-report.js';
import { memoryCommand } from '../../../components/commands/memory-command.js';
import { sectionLabel } from '../../../components/commands/session-commands.js';
import type { AppContext } from '../../../components/actions/app-context.js';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';
import { createMemoryTool } from '../../../src/tools/memory.js';

function context(printed: string[]): AppContext {
  return { print: (m: string) => printed.push(m) } as unknown as AppContext;
}

async function setUp() {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-memcmd-')));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'cairn-home');
  const claudeHome = path.join(base, 'claude');
  await fs.mkdir(path.join(ws, '.cairn', 'memory'), { recursive: true });
  await fs.mkdir(home, { recursive: true });
  const instructions = createSystemPromptSource({ cwd: ws, cairnHome: home, claudeHome, toolNames: () => [], now: () => new Date() });
  const command = memoryCommand({ instructions, cwd: ws, claudeHome, cairnHome: home, home: base });
  return { ws, home, command };
}

describe('/memory', () => {
  it('lists SOUL.md and USER.md with their sizes, and the episodic notes with their entries', async () => {
    const { ws, home, command } = await setUp();
    await fs.writeFile(path.join(home, 'SOUL.md'), 'Patient and terse.');
    await fs.writeFile(path.join(ws, '.cairn', 'USER.md'), 'Reviews in pairs.');
    await fs.writeFile(path.join(ws, '.cairn', 'memory', '2026-12-01.md'), '## 09:00 UTC: compaction (auto), 4 messages summarised\n\nx\n\n## Memory updates\n- none\n\n## 10:00 UTC: archived session abcd\n\ny\n');
    await fs.writeFile(path.join(ws, '.cairn', 'memory', '2026-12-02.md'), '## 08:00 UTC: compaction (manual), 2 messages summarised\n\nz\n');
    await fs.writeFile(path.join(ws, '.cairn', 'memory', 'notes-by-hand.txt'), 'not a dated note');
    const printed: string[] = [];
    await command.run('', context(printed));
    const out = printed.join('\n');
    expect(out).toContain('Instruction files in the context (2):');
    expect(out).toMatch(/1 {2}soul {6}~\/cairn-home\/SOUL\.md {2}18 chars/);
    expect(out).toMatch(/2 {2}profile {3}\.cairn\/USER\.md {2}17 chars/);
    expect(out).toMatch(/profile {3}~\/cairn-home\/USER\.md {2}\(your preferences; compaction proposes additions; not created yet\)/);
    expect(out).toContain('Episodic notes in .cairn/memory/ (2; not in the context: the model searches them with the memory tool):');
    expect(out).toMatch(/ {2}2026-12-01\.md {2}2 entries {2}\d+ chars\n {2}2026-12-02\.md {2}1 entry {2}\d+ chars/);
    expect(out).not.toContain('notes-by-hand');
  });

  it('says where the notes will be when there are none yet', async () => {
    const { command } = await setUp();
    const printed: string[] = [];
    await command.run('', context(printed));
    expect(printed.join('\n')).toContain('Episodic notes: none yet in .cairn/memory/ (compaction and archival at start write them).');
  });
});

describe('/context', () => {
  it('sizes SOUL.md and USER.md as sections of their own, beside the memory section', async () => {
    const { ws, home } = await setUp();
    await fs.writeFile(path.join(home, 'SOUL.md'), 'Patient and terse. '.repeat(20));
    await fs.writeFile(path.join(ws, '.cairn', 'USER.md'), 'Reviews in pairs.');
    const source = createSystemPromptSource({ cwd: ws, cairnHome: home, claudeHome: path.join(home, 'claude'), toolNames: () => [], now: () => new Date() });
    const { sections } = await source.build({ mode: 'default', model: 'm' });
    const rows = contextSections(sections.map((s) => sectionLabel(s, ws)), [], []);
    const soul = rows.find((r) => r.name.startsWith('memory: ') && r.name.endsWith('SOUL.md'));
    const user = rows.find((r) => r.name === 'memory: .cairn/USER.md');
    expect(soul?.tokens).toBeGreaterThan(user?.tokens ?? Infinity);
    expect(user?.tokens).toBeGreaterThan(0);
    expect(rows.map((r) => r.name)).toContain('system: memory');
  });
});

describe('the memory tool searches the episodic notes', () => {
  it('finds entries holding every word, newest first, with the lines that match; says so when none does or the query is missing', async () => {
    const { ws, home } = await setUp();
    await fs.writeFile(path.join(ws, '.cairn', 'memory', '2026-11-30.md'), '## 09:00 UTC: compaction (auto)\n\n- The deploy script is deploy.sh\n- unrelated\n');
    await fs.writeFile(path.join(ws, '.cairn', 'memory', '2026-12-01.md'), '## 11:00 UTC: archived session abcd\n\n- Deploy fixed: the SCRIPT needed bash\n');
    const tool = createMemoryTool({ cairnHome: home });
    const ctx = { cwd: ws, signal: new AbortController().signal };
    const found = await tool.call({ action: 'search', query: 'deploy script' }, ctx);
    expect(found.isError).toBeFalsy();
    expect(found.content).toBe(
      `2 entries in ${path.join(ws, '.cairn', 'memory')} (newest first):\n\n` +
        '2026-12-01 11:00 UTC: archived session abcd\n  - Deploy fixed: the SCRIPT needed bash\n\n' +
        '2026-11-30 09:00 UTC: compaction (auto)\n  - The deploy script is deploy.sh',
    );
    expect((await tool.call({ action: 'search', query: 'kubernetes' }, ctx)).content).toMatch(/^No episodic note in .* mentions all of: kubernetes$/);
    const missing = await tool.call({ action: 'search' }, ctx);
    expect(missing).toEqual({ content: 'memory search needs `query`: the words to look for in the episodic notes.', isError: true });
    expect(tool.effects?.({ action: 'search', query: 'x' })).toBe('none');
  });

  it('bypass attempt: a note a Read deny rule covers is not searched (the search is unasked, so it must not reach what read_file may not)', async () => {
    const { ws, home } = await setUp();
    const secret = path.join(ws, '.cairn', 'memory', '2026-11-30.md');
    await fs.writeFile(secret, '## 09:00 UTC: compaction (auto)\n\n- the token is SECRET-123\n');
    await fs.writeFile(path.join(ws, '.cairn', 'memory', '2026-12-01.md'), '## 10:00 UTC: compaction (auto)\n\n- the token was rotated\n');
    const tool = createMemoryTool({ cairnHome: home });
    const found = await tool.call({ action: 'search', query: 'token' }, { cwd: ws, signal: new AbortController().signal, isReadDenied: (p) => p === secret });
    expect(found.content).toContain('the token was rotated');
    expect(found.content).not.toContain('SECRET-123');
  });
});
