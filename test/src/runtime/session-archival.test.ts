import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notice } from '../../../src/events.js';
import { userText } from '../../../src/messages.js';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { createMemoryDistiller } from '../../../src/runtime/memory-distill.js';
import { ARCHIVED_CODE, archiveEndedSessions } from '../../../src/runtime/session-archival.js';
import { loadSession } from '../../../src/session/session-loader.js';
import { sessionFile } from '../../../src/session/session-paths.js';
import { SessionWriter } from '../../../src/session/session-writer.js';
import { createMemoryTool } from '../../../src/tools/memory.js';

async function workspace() {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-archive-')));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  await fs.mkdir(ws, { recursive: true });
  return { ws, home };
}

/** A session as cairn writes it: a prompt and the answer (and whatever else `extra` adds). */
function writeSession(at: { ws: string; home: string }, id: string, prompt: string, extra: Parameters<SessionWriter['append']>[0][] = []): string {
  const file = sessionFile(at.home, at.ws, id);
  const writer = SessionWriter.create(file, { id, cwd: at.ws, created: '2026-12-01T08:00:00.000Z' });
  writer.append({ type: 'user_prompt', text: prompt });
  writer.append({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: `answered: ${prompt}` }] } });
  for (const e of extra) writer.append(e);
  writer.close();
  return file;
}

function archiver(at: { ws: string; home: string }, currentId = 'current-session') {
  const told: string[] = [];
  const permissions = createPermissionChecker({ workspace: at.ws, mode: 'default', rules: { allow: ['memory'], ask: [], deny: [] }, cairnHome: at.home });
  const distiller = createMemoryDistiller({ cwd: at.ws, cairnHome: at.home, now: () => new Date('2026-12-02T10:30:00Z'), permissions, tools: () => [createMemoryTool({ cairnHome: at.home })] });
  const run = () =>
    archiveEndedSessions({ cairnHome: at.home, cwd: at.ws, currentId, provider: createOfflineProvider(), distiller, now: () => new Date('2026-12-02T10:30:00Z'), signal: new AbortController().signal, tell: (l) => told.push(l) });
  return { run, told };
}

const note = (ws: string) => fs.readFile(path.join(ws, '.cairn', 'memory', '2026-12-02.md'), 'utf8').catch(() => '');

describe('archival at start', () => {
  it('a short session is archived once: an episodic entry from the offline summary, memory updates, a mark in its file; the next start leaves it', async () => {
    const at = await workspace();
    const file = writeSession(at, 'aaaaaaaa-1111', 'I prefer short answers');
    const mtime = (await fs.stat(file)).mtimeMs;
    const first = archiver(at);
    expect(await first.run()).toBe(1);
    expect(first.told).toHaveLength(1);
    expect(first.told[0]).toMatch(/^Archived earlier session aaaaaaaa \("I prefer short answers"\) in the background\.\nEpisodic note: \.cairn\/memory\/2026-12-02\.md\nUSER\.md \+ I prefer short answers/);
    const text = await note(at.ws);
    expect(text).toMatch(/^## 10:30 UTC: archived session aaaaaaaa \(2 messages, started 2026-12-01 08:00\)\n\nSummary of 2 earlier messages\.\n\n- The user asked: "I prefer short answers"/);
    expect(await fs.readFile(path.join(at.home, 'USER.md'), 'utf8')).toContain('I prefer short answers');
    const loaded = await loadSession(file);
    expect(loaded.events.filter((e) => e.type === 'notice' && e.code === ARCHIVED_CODE)).toHaveLength(1);
    expect(loaded.warnings).toEqual([]);
    // -c and /resume order sessions by modification time: archiving is not using the session.
    expect(Math.abs((await fs.stat(file)).mtimeMs - mtime)).toBeLessThan(1);
    expect(await fs.readdir(path.dirname(file))).toEqual(['aaaaaaaa-1111.jsonl']);

    const second = archiver(at);
    expect(await second.run()).toBe(0);
    expect(second.told).toEqual([]);
    expect((await note(at.ws)).match(/^## \d\d:\d\d UTC/gm)).toHaveLength(1);
  });

  it('two cairns starting at once archive a session once between them', async () => {
    const at = await workspace();
    writeSession(at, 'bbbbbbbb-2222', 'read a.txt');
    const [a, b] = [archiver(at), archiver(at)];
    const counts = await Promise.all([a.run(), b.run()]);
    expect(counts[0] + counts[1]).toBe(1);
    expect((await note(at.ws)).match(/^## \d\d:\d\d UTC/gm)).toHaveLength(1);
  });

  it('leaves the running session, compacted ones, unanswered ones and marked ones alone', async () => {
    const at = await workspace();
    writeSession(at, 'current-session', 'this one is running');
    writeSession(at, 'compacted-1', 'a long one', [{ type: 'compact', trigger: 'auto', tokens_before: 10, tokens_after: 5, summary: 's', messages: [userText('s')] }]);
    writeSession(at, 'marked-1', 'archived before', [notice('info', 'Archived at the start of a later session', ARCHIVED_CODE)]);
    const unanswered = sessionFile(at.home, at.ws, 'unanswered-1');
    const w = SessionWriter.create(unanswered, { id: 'unanswered-1', cwd: at.ws, created: '2026-12-01T08:00:00.000Z' });
    w.append({ type: 'user_prompt', text: 'hello?' });
    w.close();
    const run = archiver(at);
    expect(await run.run()).toBe(0);
    expect(await note(at.ws)).toBe('');
  });

  it('a notice alone does not create a new session file: opening cairn and leaving writes nothing', async () => {
    const at = await workspace();
    const file = sessionFile(at.home, at.ws, 'quiet');
    const writer = SessionWriter.create(file, { id: 'quiet', cwd: at.ws, created: '2026-12-02T08:00:00.000Z' });
    writer.append(notice('info', 'Archived earlier session x in the background.'));
    writer.close();
    await expect(fs.stat(file)).rejects.toThrow(/ENOENT/);
    const kept = SessionWriter.create(file, { id: 'quiet', cwd: at.ws, created: '2026-12-02T08:00:00.000Z' });
    kept.append(notice('info', 'told before the first prompt'));
    kept.append({ type: 'user_prompt', text: 'hi' });
    kept.close();
    const events = (await loadSession(file)).events.map((e) => e.type);
    expect(events).toEqual(['notice', 'user_prompt']);
  });
});
