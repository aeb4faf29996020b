import { mkdir, mkdtemp, readFile, realpath, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { cleanOldOutputs, createLargeOutputSaver, SAVED_BASH_CHARS, withLargeOutput } from '../../../src/tools/large-output.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import type { AnyTool } from '../../../src/tools/tool.js';

async function setUp() {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'cairn-large-')));
  const workspace = path.join(root, 'ws');
  await mkdir(workspace);
  const sessionDir = path.join(root, 'home', 'projects', 'ws-key', 'session-a');
  const saver = createLargeOutputSaver({ sessionDir, threshold: async () => 30_000 });
  const bash = withLargeOutput(createBashTool({ keepChars: SAVED_BASH_CHARS }), saver);
  const ctx = (id: string) => ({ cwd: workspace, signal: new AbortController().signal, toolUseId: id });
  return { root, workspace, sessionDir, saver, bash, ctx };
}

const savedPath = (content: string): string => {
  const m = /saved to (\S+\.txt)$/m.exec(content);
  if (!m?.[1]) throw new Error(`no saved path in: ${content.slice(0, 300)}`);
  return m[1];
};

describe('results too large for the context are saved beside the session', () => {
  it('a 1 MB bash output gives a short result with the size and the path; the file holds all of it', async () => {
    const { bash, ctx, saver } = await setUp();
    const r = await bash.call({ command: "head -c 1048576 /dev/zero | tr '\\0' a | fold -w 99" }, ctx('toolu_big1'));
    expect(r.content.length).toBeLessThan(6_000);
    expect(r.content).toMatch(/^Output too large for the context \(1,059,167 characters, 10,592 lines, 1\.0 MB\)/);
    const file = savedPath(r.content);
    expect(file).toBe(path.join(saver.dir, 'toolu_big1.txt'));
    expect(r.content.trimEnd().split('\n').at(-1)).toBe(`(full output: 1.0 MB, saved to ${file})`); // the card's last line
    const saved = await readFile(file, 'utf8');
    expect(saved.replace(/\n/g, '')).toBe('a'.repeat(1048576));
    expect((await stat(file)).mode & 0o077).toBe(0);
  });

  it('a 200,000-line grep is saved, and read_file pages through the saved file', async () => {
    const { bash, ctx, workspace } = await setUp();
    await writeFile(path.join(workspace, 'big.log'), Array.from({ length: 200_000 }, (_, i) => `match ${i + 1}`).join('\n') + '\n');
    const r = await bash.call({ command: 'grep match big.log' }, ctx('toolu_grep'));
    expect(r.content).toContain("200,000 lines");
    expect(r.content).toContain('match 1\nmatch 2\n');
    expect(r.content).toContain('match 200000');
    const file = savedPath(r.content);
    const page = await createReadFileTool().call({ path: file, offset: 100_000, limit: 3 }, ctx('toolu_read'));
    expect(page.content).toMatch(/100000.*match 100000\n.*100001.*match 100001\n.*100002.*match 100002/);
  });

  it('small results and read_file results pass through untouched', async () => {
    const { bash, ctx, saver } = await setUp();
    expect((await bash.call({ command: 'echo hi' }, ctx('toolu_small'))).content).toBe('hi');
    const big = { content: 'x'.repeat(40_000) };
    expect(await saver.save('read_file', big, 'toolu_r')).toBe(big);
  });
});

describe('read_file may read its own session folder without asking, nothing beside it', () => {
  async function checkerFor() {
    const { root, workspace, saver } = await setUp();
    const checker = createPermissionChecker({ workspace, mode: 'default', rules: { allow: [], ask: [], deny: ['Read(**/secret.txt)'] }, cairnHome: path.join(root, 'home') });
    checker.allowReadsUnder?.(saver.dir);
    const read = createReadFileTool() as AnyTool;
    return { decide: async (p: string) => (await checker.check(read, { path: p })).behavior, saver, root };
  }

  it('a saved output is read without asking', async () => {
    const { decide, saver } = await checkerFor();
    expect(await decide(path.join(saver.dir, 'toolu_big1.txt'))).toBe('allow');
  });

  it.each([
    ["another session's outputs", '../../session-b/tool-results/toolu_x.txt'],
    ['the session folder above tool-results', '../toolu_x.jsonl'],
    ['a sibling with the same prefix', '../tool-results-evil/x.txt'],
    ['a path that climbs out through ..', 'sub/../../../../../../etc/passwd'],
  ])('%s is asked about', async (_what, rel) => {
    const { decide, saver } = await checkerFor();
    expect(await decide(path.join(saver.dir, rel))).toBe('ask');
    expect(await decide(`${saver.dir}/${rel}`)).toBe('ask');
  });

  it('a deny rule still wins inside the folder', async () => {
    const { decide, saver } = await checkerFor();
    expect(await decide(path.join(saver.dir, 'secret.txt'))).toBe('deny');
  });
});

describe('cleanupPeriodDays', () => {
  it('removes the saved outputs of sessions older than the period, keeps newer ones', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'cairn-clean-'));
    const old = path.join(root, 'projects', 'ws', 'old-session', 'tool-results');
    const fresh = path.join(root, 'projects', 'ws', 'new-session', 'tool-results');
    for (const dir of [old, fresh]) {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'a.txt'), 'x');
    }
    const now = Date.now();
    const days = (n: number) => new Date(now - n * 24 * 60 * 60 * 1000);
    await utimes(old, days(31), days(31));
    await utimes(fresh, days(2), days(2));
    expect(await cleanOldOutputs(path.join(root, 'projects'), 30, now)).toEqual([]);
    await expect(stat(old)).rejects.toThrow(/ENOENT/);
    expect((await stat(path.join(fresh, 'a.txt'))).isFile()).toBe(true);
  });
});
