import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSession } from '../../src/session/session-loader.js';
import { projectDir } from '../../src/session/session-paths.js';
import { ofType } from '../helpers/collect.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';

async function sessionFiles(home: string, cwd: string): Promise<string[]> {
  const dir = projectDir(home, cwd);
  // Each session's folder (its decision log, saved outputs) sits beside its .jsonl.
  return (await fs.readdir(dir)).filter((n) => n.endsWith('.jsonl')).map((n) => path.join(dir, n));
}

describe('crash-safe sessions (real processes)', () => {
  it('a session killed with SIGKILL mid-tool resumes with -c: nothing before the cut is lost, the dangling call is repaired', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\ntwo\n' });
    const child = spawn(process.execPath, [cairnBin, '-p', 'run echo started; sleep 4', '--permission-mode', 'bypassPermissions', '--output-format', 'stream-json'], {
      cwd: ws.dir, env: { ...process.env, CAIRN_HOME: ws.home }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no tool progress: ${out}`)), 15_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"tool_progress"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill('SIGKILL');
    await new Promise((r) => child.on('close', r));

    const [file] = await sessionFiles(ws.home, ws.dir);
    const before = await loadSession(file!);
    expect(before.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'run echo started; sleep 4' }] });
    expect(before.warnings.join()).toMatch(/bash .* had no result; added a placeholder/);

    const resumed = await runCairn(['-c', '-p', 'read a.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/had no result; added a placeholder/);
    const end = ofType(resumed.events, 'terminal')[0]!;
    expect(end.messages[0]).toEqual(before.messages[0]);
    expect(end.messages[1]).toEqual(before.messages[1]);
    expect(end.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', is_error: true });
    expect(await sessionFiles(ws.home, ws.dir)).toHaveLength(1);
  });

  it('--resume ID continues that session; -c with none starts fresh and says so', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'x\n' });
    const fresh = await runCairn(['-c', '-p', 'hello'], { cwd: ws.dir, home: ws.home });
    expect(fresh.stderr).toMatch(/No earlier session in this workspace/);
    const [file] = await sessionFiles(ws.home, ws.dir);
    const id = path.basename(file!, '.jsonl');
    const again = await runCairn(['--resume', id, '-p', 'read a.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    const end = ofType(again.events, 'terminal')[0]!;
    expect(end.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'hello' }] });
    const loaded = await loadSession(file!);
    expect(loaded.messages.filter((m) => m.role === 'user' && m.content[0]?.type === 'text').length).toBe(2);
  });
});
