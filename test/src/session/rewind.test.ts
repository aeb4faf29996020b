import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initialState, reduce } from '../../../components/store/reduce.js';
import { createOfflineProvider } from '../../../src/providers/offline.js';
import { AgentSession } from '../../../src/session/agent-session.js';
import { CheckpointRecorder, withCheckpoints } from '../../../src/session/checkpoint-tools.js';
import { checkpointFile, CheckpointStore } from '../../../src/session/checkpoints.js';
import { codeChanges, rewindCode } from '../../../src/session/rewind.js';
import { loadSession } from '../../../src/session/session-loader.js';
import { SessionWriter } from '../../../src/session/session-writer.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { textOf } from '../../../src/messages.js';
import { allowEverything } from '../../helpers/real-permissions.js';

let root: string;
let ws: string;
let sessionPath: string;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-rewind-')));
  ws = path.join(root, 'ws');
  await fs.mkdir(ws);
  sessionPath = path.join(root, 'home', 'projects', 'w', 's1.jsonl');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function open(resume: boolean) {
  const loaded = resume ? await loadSession(sessionPath) : undefined;
  const recorder = new CheckpointRecorder(await CheckpointStore.load(checkpointFile(sessionPath)));
  const writer = resume ? SessionWriter.resume(sessionPath) : SessionWriter.create(sessionPath, { id: 's1', cwd: ws, created: 'now' });
  const session = new AgentSession({
    provider: createOfflineProvider({ model: 'm' }),
    tools: [createWriteFileTool(), createEditFileTool()].map((t) => withCheckpoints(t, recorder)),
    permissions: await allowEverything(ws),
    cwd: ws,
    system: () => 's',
    interactive: false,
    checkpoints: recorder,
    ...(loaded ? { history: loaded.messages, prompts: loaded.prompts } : {}),
  });
  session.subscribe((e) => writer.append(e));
  return { session, recorder, writer };
}

describe('rewinding a session', () => {
  it('to before the first prompt: code and conversation go back, and stay back after a resume', async () => {
    const first = await open(false);
    await first.session.run('write hello to notes.md');
    await first.session.run('edit notes.md: replace hello with bye');
    expect(await fs.readFile(path.join(ws, 'notes.md'), 'utf8')).toBe('bye\n');
    first.writer.close();

    // After a restart (cairn -c) the prompts and checkpoints come back from beside the session file.
    const again = await open(true);
    const points = again.session.rewindPoints;
    expect(points.map((p) => p.text)).toEqual(['write hello to notes.md', 'edit notes.md: replace hello with bye']);
    const firstPrompt = points[0] ?? { turn: -1, id: -1 };
    const target = firstPrompt.turn;
    expect(codeChanges(again.recorder, firstPrompt).map((c) => [path.basename(c.path), c.action])).toEqual([['notes.md', 'delete']]);

    const outcomes = await rewindCode(again.recorder, ws, firstPrompt);
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    await expect(fs.access(path.join(ws, 'notes.md'))).rejects.toThrow();
    expect(await again.session.rewind(target)).toBe(true);
    expect(again.session.messages).toEqual([]);
    expect(again.session.rewindPoints).toEqual([]);
    again.writer.close();

    const loaded = await loadSession(sessionPath);
    expect(loaded.messages).toEqual([]);
    expect(loaded.prompts).toEqual({ marks: [], count: 2 });
    const transcript = reduce(initialState(), { type: 'recorded', events: loaded.events, at: 1 });
    expect(transcript.items.filter((i) => i.kind === 'user')).toEqual([]);
    expect((await CheckpointStore.load(checkpointFile(sessionPath))).all()).toEqual([]);
  });

  it('to before the second prompt keeps the first one, in the history and the transcript', async () => {
    const s = await open(false);
    await s.session.run('write hello to notes.md');
    await s.session.run('edit notes.md: replace hello with bye');
    await s.session.run('write x to other.md');
    const secondPrompt = s.session.rewindPoints[1] ?? { turn: -1, id: -1 };
    const second = secondPrompt.turn;
    expect(codeChanges(s.recorder, secondPrompt).map((c) => [path.basename(c.path), c.action, c.content?.toString('utf8') ?? null])).toEqual([
      ['other.md', 'delete', null],
      ['notes.md', 'restore', 'hello\n'],
    ]);
    await rewindCode(s.recorder, ws, secondPrompt);
    expect(await fs.readFile(path.join(ws, 'notes.md'), 'utf8')).toBe('hello\n');
    expect(await s.session.rewind(second)).toBe(true);
    expect(textOf(s.session.messages[0] ?? { role: 'user', content: [] })).toBe('write hello to notes.md');
    expect(s.session.messages.at(-1)?.role).toBe('assistant');
    s.writer.close();

    const loaded = await loadSession(sessionPath);
    expect(loaded.messages).toEqual(s.session.messages);
    const live = reduce(initialState(), { type: 'recorded', events: loaded.events, at: 1 });
    const users = live.items.filter((i) => i.kind === 'user').map((i) => (i.kind === 'user' ? i.text : ''));
    expect(users).toEqual(['write hello to notes.md']);
    const oneByOne = loaded.events.reduce((st, event) => reduce(st, { type: 'event', event, at: 1 }), initialState());
    expect(live.items).toEqual(oneByOne.items);

    // The next prompt continues from the rewound conversation and is itself a rewind point.
    const next = await open(true);
    await next.session.run('write again to notes.md');
    expect(next.session.rewindPoints.map((p) => p.text)).toEqual(['write hello to notes.md', 'write again to notes.md']);
    next.writer.close();
  });

  it('after /clear, to before the new first prompt: only its files go back, the earlier conversation\'s stay, also after a resume', async () => {
    const s = await open(false);
    await s.session.run('write kept to keep.txt');
    s.session.clear();
    await s.session.run('write new to other.txt');
    const [only] = s.session.rewindPoints;
    expect(s.session.rewindPoints.map((p) => p.text)).toEqual(['write new to other.txt']);
    // Both prompts sat at history index 0; the prompt's number tells them apart.
    expect(only).toMatchObject({ turn: 0, id: 1 });
    expect(codeChanges(s.recorder, only!).map((c) => [path.basename(c.path), c.action])).toEqual([['other.txt', 'delete']]);
    s.writer.close();

    const again = await open(true);
    const [point] = again.session.rewindPoints;
    expect(point).toEqual(only);
    expect((await rewindCode(again.recorder, ws, point!)).map((o) => [path.basename(o.path), o.ok])).toEqual([['other.txt', true]]);
    expect(await again.session.rewind(point!.turn)).toBe(true);
    await expect(fs.access(path.join(ws, 'other.txt'))).rejects.toThrow();
    expect(await fs.readFile(path.join(ws, 'keep.txt'), 'utf8')).toBe('kept\n');
    // The first conversation's checkpoint stays; the rewound prompt's is gone, and the next prompt gets a number of its own.
    expect(again.recorder.store.all().map((r) => [path.basename(r.path), r.prompt])).toEqual([['keep.txt', 0]]);
    await again.session.run('write again to third.txt');
    expect(again.session.rewindPoints.map((p) => p.id)).toEqual([2]);
    again.writer.close();
  });

  it('refuses a turn that is not a prompt', async () => {
    const s = await open(false);
    await s.session.run('write hello to notes.md');
    expect(await s.session.rewind(1)).toBe(false);
    expect(s.session.messages.length).toBeGreaterThan(1);
    s.writer.close();
  });
});
