import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInstructionFiles } from '../../../src/context/instruction-files.js';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';

async function workspace(): Promise<{ ws: string; home: string }> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-instr-')));
  const ws = path.join(base, 'ws');
  const home = path.join(base, 'home');
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  execFileSync('git', ['init', '-q', ws]);
  return { ws, home };
}

describe('instruction files that cannot be read', () => {
  it('are reported naming the file and left out; the readable ones still load', async () => {
    const { ws, home } = await workspace();
    await fs.mkdir(path.join(ws, 'AGENTS.md'));
    await fs.writeFile(path.join(ws, 'CLAUDE.md'), 'claude rules');
    const problems: string[] = [];
    const { files } = await loadInstructionFiles({ cairnHome: home, claudeHome: path.join(home, 'claude'), cwd: ws, onProblem: (m) => problems.push(m) });
    expect(files.map((f) => f.content)).toEqual(['claude rules']);
    expect(problems).toEqual([`Instruction file ${path.join(ws, 'AGENTS.md')}: is a directory, not a file; not read; it is left out of the system prompt`]);
  });

  it('a FIFO named AGENTS.md is reported without being opened (it would hang the prompt)', async () => {
    const { ws, home } = await workspace();
    execFileSync('mkfifo', [path.join(ws, 'AGENTS.md')]);
    const problems: string[] = [];
    expect((await loadInstructionFiles({ cairnHome: home, claudeHome: path.join(home, 'claude'), cwd: ws, onProblem: (m) => problems.push(m) })).files).toEqual([]);
    expect(problems).toEqual([expect.stringContaining(`${path.join(ws, 'AGENTS.md')}: is a FIFO (named pipe)`)]);
  });

  it('the system prompt source reports a problem once, not on every turn', async () => {
    const { ws, home } = await workspace();
    await fs.mkdir(path.join(ws, 'CLAUDE.md'));
    const problems: string[] = [];
    const source = createSystemPromptSource({ cwd: ws, cairnHome: home, claudeHome: path.join(home, 'claude'), toolNames: () => [], now: () => new Date('2026-11-30T10:00:00Z'), onProblem: (m) => problems.push(m) });
    await source.build({ mode: 'default', model: 'm' });
    await source.build({ mode: 'default', model: 'm' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(path.join(ws, 'CLAUDE.md'));
  });

  it('a CLAUDE.md linked to a deleted AGENTS.md is reported, not silently absent', async () => {
    const { ws, home } = await workspace();
    await fs.symlink('AGENTS.md', path.join(ws, 'CLAUDE.md'));
    const problems: string[] = [];
    expect((await loadInstructionFiles({ cairnHome: home, claudeHome: path.join(home, 'claude'), cwd: ws, onProblem: (m) => problems.push(m) })).files).toEqual([]);
    expect(problems).toEqual([`Instruction file ${path.join(ws, 'CLAUDE.md')}: is a symbolic link to AGENTS.md, which does not exist; it is left out of the system prompt`]);
  });
});
