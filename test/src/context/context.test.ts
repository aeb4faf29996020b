import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compactMessages, splitForCompaction, SUMMARY_PREFIX } from '../../../src/context/compact.js';
import { loadInstructionFiles } from '../../../src/context/instruction-files.js';
import { microCompact } from '../../../src/context/micro-compact.js';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';
import { userText, type Message } from '../../../src/messages.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { createMemoryTool } from '../../../src/tools/memory.js';

async function tmp(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-ctx-')));
}

const exchange = (n: number, bigResult = 'x'): Message[] => [
  userText(`prompt ${n}`),
  { role: 'assistant', content: [{ type: 'tool_use', id: `t${n}`, name: 'read_file', input: { path: `f${n}.txt` } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${n}`, content: bigResult }] },
  { role: 'assistant', content: [{ type: 'text', text: `answer ${n}` }] },
];

describe('memory files', () => {
  it('reads the chain from CAIRN_HOME, then git root down to the workspace, de-duplicated', async () => {
    const base = await tmp();
    const home = path.join(base, 'home');
    const repo = path.join(base, 'repo');
    const ws = path.join(repo, 'packages', 'app');
    await fs.mkdir(path.join(ws, '.cairn'), { recursive: true });
    await fs.mkdir(home, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    await fs.writeFile(path.join(base, 'AGENTS.md'), 'above the repo: not read');
    await fs.writeFile(path.join(home, 'AGENT.md'), 'user rules');
    await fs.writeFile(path.join(repo, 'AGENTS.md'), 'repo agents');
    await fs.symlink(path.join(repo, 'AGENTS.md'), path.join(repo, 'CLAUDE.md'));
    await fs.writeFile(path.join(repo, 'packages', 'CLAUDE.md'), 'packages claude');
    await fs.writeFile(path.join(ws, 'AGENT.md'), 'app agent');
    await fs.writeFile(path.join(ws, '.cairn', 'AGENT.md'), 'app cairn');
    const { files } = await loadInstructionFiles({ cairnHome: home, claudeHome: path.join(base, 'claude'), cwd: ws });
    expect(files.map((f) => f.content)).toEqual(['user rules', 'repo agents', 'packages claude', 'app agent', 'app cairn']);
  });

  it('the system prompt puts static first, environment next, memory last, and is stable across turns', async () => {
    const ws = await tmp();
    await fs.writeFile(path.join(ws, 'CLAUDE.md'), 'Use tabs.');
    const source = createSystemPromptSource({ cwd: ws, cairnHome: path.join(ws, 'h'), claudeHome: path.join(ws, 'c'), toolNames: () => ['read_file'], now: () => new Date('2026-11-29T10:00:00Z') });
    const a = await source.build({ mode: 'default', model: 'm' });
    const b = await source.build({ mode: 'default', model: 'm' });
    expect(a.text).toBe(b.text);
    expect(a.sections.map((s) => [s.kind, s.name.startsWith('/') ? 'file' : s.name])).toEqual([['static', 'static'], ['dynamic', 'environment'], ['dynamic', 'memory'], ['memory', 'file']]);
    expect(a.text.indexOf('You are cairn')).toBe(0);
    expect(a.text).toMatch(/Date: 2026-11-29/);
    expect(a.text.indexOf('Use tabs.')).toBeGreaterThan(a.text.indexOf('Workspace:'));
    const plan = await source.build({ mode: 'plan', model: 'm' });
    expect(plan.text).toMatch(/Permission mode: plan \(read-only/);
  });
});

describe('long-term memory tool', () => {
  it('saves timestamped entries, reads them numbered, forgets one; the prompt includes them', async () => {
    const ws = await tmp();
    const home = path.join(ws, 'home');
    const tool = createMemoryTool({ cairnHome: home, now: () => new Date('2026-11-29T08:30:00Z') });
    const ctx = { cwd: ws, signal: new AbortController().signal };
    expect((await tool.call({ action: 'save', text: 'always use pnpm here' }, ctx)).content).toMatch(/\[2026-11-29 08:30\] always use pnpm here/);
    await tool.call({ action: 'save', scope: 'user', text: 'answer in English' }, ctx);
    await tool.call({ action: 'save', text: 'tests live in test/' }, ctx);
    const read = await tool.call({ action: 'read' }, ctx);
    expect(read.content).toMatch(/user memory[\s\S]*1\. \[.*\] answer in English[\s\S]*project memory[\s\S]*1\. .*pnpm[\s\S]*2\. .*tests live/);
    expect((await tool.call({ action: 'forget', index: 1 }, ctx)).content).toMatch(/Forgot project entry 1: .*pnpm/);
    expect((await tool.call({ action: 'forget', index: 9 }, ctx)).isError).toBe(true);
    const prompt = await createSystemPromptSource({ cwd: ws, cairnHome: home, claudeHome: path.join(ws, 'claude'), toolNames: () => [], now: () => new Date() }).build({ mode: 'default', model: 'm' });
    expect(prompt.text).toMatch(/answer in English/);
    expect(prompt.text).toMatch(/tests live in test/);
    expect(prompt.text).not.toMatch(/pnpm/);
  });
});

describe('compaction', () => {
  it('the tail starts at the last plain prompt, so tool pairs are never split', () => {
    const history = [...exchange(1), ...exchange(2), userText('prompt 3'), { role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'bash', input: {} }] } as Message, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't3', content: 'ok' }] } as Message];
    const { head, tail } = splitForCompaction(history);
    expect(head).toHaveLength(8);
    expect(tail[0]).toEqual(userText('prompt 3'));
    expect(tail).toHaveLength(3);
  });

  it('summarises the head with the (offline) model and keeps the tail verbatim', async () => {
    const big = 'some file content\n'.repeat(50);
    const history = [...exchange(1, big), ...exchange(2, big), userText('prompt 3')];
    const result = await compactMessages({ messages: history, provider: createOfflineProvider(), signal: new AbortController().signal });
    expect(result).toBeDefined();
    expect(result!.messages[0]!.content[0]).toMatchObject({ type: 'text' });
    const summary = (result!.messages[0]!.content[0] as { text: string }).text;
    expect(summary.startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(summary).toMatch(/"prompt 1"; "prompt 2"/);
    expect(summary).toMatch(/read_file \{"path":"f2.txt"\}/);
    expect(result!.messages.slice(1)).toEqual([userText('prompt 3')]);
    expect(result!.tokensAfter).toBeLessThan(result!.tokensBefore);
  });

  it('a single exchange has nothing to compact', async () => {
    expect(await compactMessages({ messages: exchange(1), provider: createOfflineProvider(), signal: new AbortController().signal })).toBeUndefined();
  });

  it('micro-compaction stubs old large results but keeps the recent ones and the latest reads', () => {
    const big = 'line\n'.repeat(100);
    const history = [1, 2, 3, 4, 5, 6].flatMap((n) => exchange(n, big));
    const out = microCompact(history, 2);
    const results = out.flatMap((m) => m.content.filter((b) => b.type === 'tool_result')) as { tool_use_id: string; content: string }[];
    // 5 and 6 are the most recent two; 4 is kept as one of the three latest distinct files read.
    expect(results.map((r) => r.content.startsWith('[Old result'))).toEqual([true, true, true, false, false, false]);
    expect(results[0]!.content).toMatch(/read_file \{"path":"f1.txt"\}/);
    expect(history[2]!.content[0]).toMatchObject({ content: big });
  });
});
