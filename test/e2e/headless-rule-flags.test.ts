import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// Claude Code's form: several rules as several arguments after one flag. Under bypassPermissions
// only a deny rule stops a command, so a rule that was dropped shows as a command that ran.
const denyBoth = ['--permission-mode', 'bypassPermissions', '--disallowed-tools', 'Bash(rm:*)', 'Bash(curl:*)'];

describe('cairn -p with rule lists given as several arguments (built binary)', () => {
  it('--disallowed-tools "Bash(rm:*)" "Bash(curl:*)": rm and curl are both denied, and the prompt is the prompt', async () => {
    const ws = await tempWorkspace({ 'victim.txt': 'keep me\n' });
    const rm = await runCairn(['-p', 'run rm victim.txt', '--output-format', 'stream-json', ...denyBoth], { cwd: ws.dir, home: ws.home });
    expect(rm.code).toBe(0);
    expect(ofType(rm.events, 'user_prompt').map((e) => e.text)).toEqual(['run rm victim.txt']);
    expect(ofType(rm.events, 'permission_denied')).toHaveLength(1);
    expect(await fs.readFile(path.join(ws.dir, 'victim.txt'), 'utf8')).toBe('keep me\n');

    const curl = await runCairn(['-p', 'run curl --version > fetched.txt', '--output-format', 'stream-json', ...denyBoth], { cwd: ws.dir, home: ws.home });
    expect(curl.code).toBe(0);
    expect(ofType(curl.events, 'permission_denied')).toHaveLength(1);
    await expect(fs.access(path.join(ws.dir, 'fetched.txt'))).rejects.toThrow();
  });

  it('the camelCase flag with one comma-separated argument and the prompt after "--"', async () => {
    const ws = await tempWorkspace({ 'victim.txt': 'keep me\n' });
    const run = await runCairn(
      ['-p', '--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash(curl:*),Bash(rm:*)', '--output-format', 'stream-json', '--', 'run rm victim.txt'],
      { cwd: ws.dir, home: ws.home },
    );
    expect(run.code).toBe(0);
    expect(ofType(run.events, 'permission_denied')).toHaveLength(1);
    expect(await fs.readFile(path.join(ws.dir, 'victim.txt'), 'utf8')).toBe('keep me\n');
  });

  it('--allowed-tools with several arguments allows each rule', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\n' });
    const run = await runCairn(['-p', 'run echo hi && pwd', '--output-format', 'stream-json', '--allowed-tools', 'Bash(echo:*)', 'Bash(pwd)'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    expect(ofType(run.events, 'permission_denied')).toHaveLength(0);
    expect(ofType(run.events, 'tool_result')[0]!.content).toContain(ws.dir);
  });
});
