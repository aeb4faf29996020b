import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryPath } from '../../../src/context/long-term-memory.js';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';

describe('the system prompt when a memory file cannot be read', () => {
  it('is still built; the memory is left out and reported naming the file', async () => {
    const ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-prompt-')));
    const home = path.join(ws, 'home');
    const scopes = { cairnHome: home, cwd: ws };
    await fs.mkdir(memoryPath('project', scopes), { recursive: true });
    await fs.mkdir(path.dirname(memoryPath('user', scopes)), { recursive: true });
    await fs.writeFile(memoryPath('user', scopes), '# Memory (user)\n\n- [2026-11-30 10:00] likes tabs\n');
    const problems: string[] = [];
    const source = createSystemPromptSource({ cwd: ws, cairnHome: home, claudeHome: path.join(ws, 'claude'), toolNames: () => [], now: () => new Date('2026-11-30T10:00:00Z'), onProblem: (m) => problems.push(m) });
    const { text } = await source.build({ mode: 'default', model: 'm' });
    expect(text).toContain('likes tabs');
    expect(problems).toEqual([`Memory ${memoryPath('project', scopes)}: is a directory, not a file; not read; it is left out of the system prompt`]);
  });
});
