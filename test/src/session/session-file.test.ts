import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { loadSession, SessionFormatError } from '../../../src/session/session-loader.js';
import { SessionWriter } from '../../../src/session/session-writer.js';

async function tempFile(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-session-'));
  return path.join(dir, 'projects', 'ws', 's1.jsonl');
}

const turn: AgentEvent[] = [
  { type: 'user_prompt', text: 'read a.txt and b.txt' },
  { type: 'turn_start', turn: 1 },
  { type: 'text_delta', text: 'Reading' },
  { type: 'assistant', message: { role: 'assistant', content: [
    { type: 'text', text: 'Reading' },
    { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.txt' } },
    { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'b.txt' } },
  ] } },
  { type: 'tool_start', id: 't1', name: 'read_file', input: { path: 'a.txt' }, parallel: true, batch: 1 },
  { type: 'tool_start', id: 't2', name: 'read_file', input: { path: 'b.txt' }, parallel: true, batch: 1 },
  // Completion order differs from call order.
  { type: 'tool_result', id: 't2', name: 'read_file', content: 'B', is_error: false, duration_ms: 1 },
  { type: 'tool_result', id: 't1', name: 'read_file', content: 'A', is_error: false, duration_ms: 2 },
  { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Both read.' }] } },
  { type: 'terminal', reason: 'completed', turns: 2, messages: [], result: 'Both read.' },
];

describe('session files', () => {
  it('round-trips: the history is rebuilt with results in call order, deltas are not stored', async () => {
    const file = await tempFile();
    const writer = SessionWriter.create(file, { id: 's1', cwd: '/w', created: '2026-01-01T00:00:00Z' });
    for (const e of turn) writer.append(e);
    writer.close();
    const raw = await fs.readFile(file, 'utf8');
    expect(raw).not.toContain('text_delta');
    const loaded = await loadSession(file);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.header).toMatchObject({ id: 's1', version: 1 });
    expect(loaded.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(loaded.messages[2]!.content.map((b) => (b as { tool_use_id: string }).tool_use_id)).toEqual(['t1', 't2']);
    expect(loaded.events.some((e) => e.type === 'terminal')).toBe(true);
  });

  it("a subagent's deltas are not stored either, at any depth; its other events are", async () => {
    const file = await tempFile();
    const writer = SessionWriter.create(file, { id: 's1', cwd: '/w', created: '2026-01-01T00:00:00Z' });
    const wrap = (event: AgentEvent, depth = 1): AgentEvent => ({ type: 'subagent', parent_id: 'a1', agent_type: 'explore', depth, event });
    writer.append(wrap({ type: 'text_delta', text: 'child says' }));
    writer.append(wrap(wrap({ type: 'thinking_delta', text: 'grandchild thinks' }, 2)));
    writer.append(wrap({ type: 'tool_progress', id: 'c1', name: 'bash', content: 'line' }));
    writer.append(wrap({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'child done' }] } }));
    writer.close();
    const raw = await fs.readFile(file, 'utf8');
    expect(raw).not.toContain('child says');
    expect(raw).not.toContain('grandchild thinks');
    expect(raw).not.toContain('tool_progress');
    expect(raw).toContain('child done');
  });

  it('creates no file until something is recorded', async () => {
    const file = await tempFile();
    SessionWriter.create(file, { id: 's1', cwd: '/w', created: 'x' }).close();
    await expect(fs.access(file)).rejects.toThrow();
  });

  it('an event told after the session ended (a teammate stopping as cairn exits) is left out, not thrown', async () => {
    const file = await tempFile();
    const writer = SessionWriter.create(file, { id: 's1', cwd: '/w', created: 'now' });
    writer.append({ type: 'user_prompt', text: 'hi' });
    writer.close();
    expect(() => writer.append({ type: 'team', kind: 'status', name: 'counter', status: 'stopped' })).not.toThrow();
    const loaded = await loadSession(file);
    expect(loaded.events.map((e) => e.type)).toEqual(['user_prompt']);
  });

  it('a cut-off file loads: the torn line is skipped with its line number and the dangling call is repaired', async () => {
    const file = await tempFile();
    const writer = SessionWriter.create(file, { id: 's1', cwd: '/w', created: 'x' });
    for (const e of turn.slice(0, 7)) writer.append(e);
    writer.close();
    await fs.appendFile(file, '{"type":"tool_result","id":"t1","na');
    const loaded = await loadSession(file);
    const text = loaded.warnings.join('\n');
    expect(text).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+: skipped a line that is not valid JSON`));
    expect(text).toMatch(/read_file \(t1\) had no result; added a placeholder/);
    const results = loaded.messages[2]!.content;
    expect(results).toMatchObject([{ tool_use_id: 't1', is_error: true }, { tool_use_id: 't2', content: 'B' }]);

    // Continuing the file after a torn line starts on a fresh line.
    const resumed = SessionWriter.resume(file);
    resumed.append({ type: 'user_prompt', text: 'again' });
    resumed.close();
    const reloaded = await loadSession(file);
    expect(reloaded.messages.at(-1)).toEqual({ role: 'user', content: [{ type: 'text', text: 'again' }] });
  });

  it('a corrupt line in the middle is skipped and the rest loads', async () => {
    const file = await tempFile();
    const writer = SessionWriter.create(file, { id: 's1', cwd: '/w', created: 'x' });
    writer.append(turn[0]!);
    writer.close();
    await fs.appendFile(file, 'garbage\n{"type":"assistant","message":{"role":"robot"}}\n');
    const w2 = SessionWriter.resume(file);
    w2.append({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] } });
    w2.close();
    const loaded = await loadSession(file);
    expect(loaded.warnings).toHaveLength(2);
    expect(loaded.warnings[0]).toMatch(/:3: skipped a line that is not valid JSON/);
    expect(loaded.warnings[1]).toMatch(/:4: kept a record this cairn cannot read \(message\.role/);
    expect(loaded.unknown).toEqual([{ line: 4, record: { type: 'assistant', message: { role: 'robot' } }, reason: expect.stringMatching(/^message\.role/) }]);
    expect(loaded.messages).toHaveLength(2);
  });

  it('refuses a file from a newer format instead of loading garbage', async () => {
    const file = await tempFile();
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, '{"type":"session_header","version":99,"id":"x","cwd":"/","created":"x"}\n');
    await expect(loadSession(file)).rejects.toThrow(SessionFormatError);
    await expect(loadSession(file)).rejects.toThrow(/newer cairn \(format 99/);
  });
});
