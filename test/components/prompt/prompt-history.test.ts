import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PROMPT_HISTORY_LIMIT,
  appendPromptHistory,
  loadPromptHistory,
  loadPromptHistoryWithProblems,
} from '../../../components/prompt/prompt-history.js';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cairn-history-'));
  file = join(dir, 'nested', 'history.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('prompt history file', () => {
  it('a missing file is an empty history', async () => {
    expect(await loadPromptHistory(file)).toEqual([]);
  });

  it('round-trips entries newest last, with text/ts/cwd on each line', async () => {
    await appendPromptHistory(file, 'first', '/repo');
    await appendPromptHistory(file, 'multi\nline "quoted"', '/repo');
    expect(await loadPromptHistory(file)).toEqual(['first', 'multi\nline "quoted"']);
    const lines = (await readFile(file, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ text: 'first', cwd: '/repo' });
    expect(typeof lines[0]?.ts).toBe('string');
  });

  it('does not store the same prompt twice in a row, even when submitted concurrently', async () => {
    const written = await Promise.all([
      appendPromptHistory(file, 'again', '/r'),
      appendPromptHistory(file, 'again', '/r'),
    ]);
    expect(written.sort()).toEqual([false, true]);
    await appendPromptHistory(file, 'other', '/r');
    await appendPromptHistory(file, 'again', '/r');
    expect(await loadPromptHistory(file)).toEqual(['again', 'other', 'again']);
  });

  it('skips corrupt lines and names them', async () => {
    await appendPromptHistory(file, 'good one', '/r');
    await writeFile(file, (await readFile(file, 'utf8')) + '{not json\n' + JSON.stringify({ ts: 'x' }) + '\n', 'utf8');
    await appendPromptHistory(file, 'good two', '/r');
    const { entries, problems } = await loadPromptHistoryWithProblems(file);
    expect(entries).toEqual(['good one', 'good two']);
    expect(problems).toEqual([`${file}:2: not JSON`, `${file}:3: field "text" is not a string`]);
  });

  it('keeps only the last 1000 entries', async () => {
    const many = Array.from({ length: PROMPT_HISTORY_LIMIT + 50 }, (_, i) => JSON.stringify({ text: `p${i}`, ts: '', cwd: '' }));
    await appendPromptHistory(file, 'seed', '/r'); // creates the directory
    await writeFile(file, many.join('\n') + '\n', 'utf8');
    const entries = await loadPromptHistory(file);
    expect(entries).toHaveLength(PROMPT_HISTORY_LIMIT);
    expect(entries[0]).toBe('p50');
    expect(entries.at(-1)).toBe(`p${PROMPT_HISTORY_LIMIT + 49}`);
  });

  it('compares with the last entry even when it is larger than the tail read', async () => {
    const huge = 'z'.repeat(100_000);
    expect(await appendPromptHistory(file, huge, '/r')).toBe(true);
    expect(await appendPromptHistory(file, huge, '/r')).toBe(false);
  });
});
