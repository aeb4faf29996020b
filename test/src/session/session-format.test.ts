import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrateRecord, SESSION_FORMAT_VERSION, unreadableVersion } from '../../../src/session/session-format.js';
import { loadSession, SessionFormatError } from '../../../src/session/session-loader.js';
import { SessionWriter } from '../../../src/session/session-writer.js';

const GOLDEN_DIR = fileURLToPath(new URL('../../fixtures/sessions/', import.meta.url));

async function tempDir(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'cairn-format-'));
}

async function goldenFiles(): Promise<string[]> {
  return (await fs.readdir(GOLDEN_DIR)).filter((n) => /^v\d+\.jsonl$/.test(n)).map((n) => path.join(GOLDEN_DIR, n));
}

describe('golden session files (one per released format)', () => {
  it('there is one for every format up to the current one', async () => {
    const names = (await goldenFiles()).map((f) => path.basename(f)).sort();
    const expected = Array.from({ length: SESSION_FORMAT_VERSION }, (_, i) => `v${i + 1}.jsonl`).sort();
    expect(names).toEqual(expected);
  });

  it('each loads whole: every record becomes an event, with no warnings', async () => {
    for (const file of await goldenFiles()) {
      const loaded = await loadSession(file);
      const records = (await fs.readFile(file, 'utf8')).split('\n').filter((l) => l.trim() !== '').slice(1);
      expect({ file, warnings: loaded.warnings, unknown: loaded.unknown }).toEqual({ file, warnings: [], unknown: [] });
      expect(loaded.events.map((e) => e.type)).toEqual(records.map((r) => (JSON.parse(r) as { type: string }).type));
    }
  });

  it('format 1: the conversation is rebuilt through compaction and /clear', async () => {
    const loaded = await loadSession(path.join(GOLDEN_DIR, 'v1.jsonl'));
    expect(loaded.header).toMatchObject({ id: 'golden-v1', version: 1 });
    expect(loaded.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'start over' }] }]);
    const results = loaded.events.filter((e) => e.type === 'tool_result').map((e) => (e.type === 'tool_result' ? [e.id, e.content] : []));
    expect(results).toEqual([['t2', '1 failed'], ['t1', '     1\thelo\n'], ['t3', 'Permission denied: denied by the user'], ['t4', 'b.txt is fine']]);
    const nested = loaded.events.find((e) => e.type === 'subagent');
    expect(nested).toMatchObject({ parent_id: 't4', event: { type: 'tool_result', id: 'c1', content: 'b' } });
  });
});

describe('records that fail today\'s schema', () => {
  it('are kept and reported with file and line, and stay in the file when the session continues', async () => {
    const file = path.join(await tempDir(), 's.jsonl');
    const odd = '{"type":"tool_result","id":"t1","name":"read_file","content":42,"is_error":false,"duration_ms":1}';
    const future = '{"type":"web_fetch","url":"https://example.com"}';
    await fs.writeFile(file, [
      '{"type":"session_header","version":1,"id":"s","cwd":"/w","created":"x"}',
      '{"type":"user_prompt","text":"hi"}',
      odd,
      future,
      '',
    ].join('\n'));
    const loaded = await loadSession(file);
    expect(loaded.unknown).toEqual([
      { line: 3, record: JSON.parse(odd), reason: expect.stringContaining('content') },
      { line: 4, record: JSON.parse(future), reason: expect.any(String) },
    ]);
    expect(loaded.warnings).toEqual([
      expect.stringContaining(`${file}:3: kept a record this cairn cannot read (content:`),
      expect.stringContaining(`${file}:4: kept a record this cairn cannot read`),
    ]);
    expect(loaded.events).toEqual([{ type: 'user_prompt', text: 'hi' }]);

    const writer = SessionWriter.resume(file);
    writer.append({ type: 'user_prompt', text: 'again' });
    writer.close();
    const text = await fs.readFile(file, 'utf8');
    expect(text).toContain(`${odd}\n${future}\n`);
    expect((await loadSession(file)).unknown).toHaveLength(2);
  });
});

describe('migrations', () => {
  it('each record of an older file passes through every migration in order', () => {
    const steps = {
      1: (r: Record<string, unknown>) => ({ ...r, trail: [...((r['trail'] as string[] | undefined) ?? []), '1->2'] }),
      2: (r: Record<string, unknown>) => ({ ...r, trail: [...((r['trail'] as string[] | undefined) ?? []), '2->3'] }),
    };
    expect(migrateRecord({ type: 'clear' }, 1, 3, steps)).toEqual({ type: 'clear', trail: ['1->2', '2->3'] });
    expect(migrateRecord({ type: 'clear' }, 2, 3, steps)).toEqual({ type: 'clear', trail: ['2->3'] });
    expect(migrateRecord({ type: 'clear' }, 3, 3, steps)).toEqual({ type: 'clear' });
  });

  it('loadSession migrates an older file before checking records against the schema', async () => {
    const file = path.join(await tempDir(), 'old.jsonl');
    await fs.writeFile(file, '{"type":"session_header","version":1,"id":"s","cwd":"/w","created":"x"}\n{"type":"prompt","words":"hi"}\n');
    // A made-up format 1 that called user prompts `prompt`, read by a cairn whose format 2 renamed it.
    const migrations = { 1: (r: Record<string, unknown>) => (r['type'] === 'prompt' ? { type: 'user_prompt', text: r['words'] } : r) };
    const loaded = await loadSession(file, { format: { version: 2, migrations } });
    expect(loaded.warnings).toEqual([]);
    expect(loaded.events).toEqual([{ type: 'user_prompt', text: 'hi' }]);
  });

  it('a format with no path to today is refused, naming the file', async () => {
    const file = path.join(await tempDir(), 'old.jsonl');
    await fs.writeFile(file, '{"type":"session_header","version":1,"id":"s","cwd":"/w","created":"x"}\n');
    await expect(loadSession(file, { format: { version: 2, migrations: {} } })).rejects.toThrow(`${file}: is format 1 and this cairn has no migration from format 1`);
    expect(unreadableVersion(0)).toMatch(/no valid format version/);
    expect(unreadableVersion('1')).toMatch(/no valid format version/);
    await fs.writeFile(file, '{"type":"session_header","id":"s","cwd":"/w","created":"x"}\n');
    await expect(loadSession(file)).rejects.toThrow(SessionFormatError);
  });
});
