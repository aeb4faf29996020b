import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

const files = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'alpha\nbeta\n', 'src/main.ts': 'const greeting = "hi";\n// TODO: more\n' };

describe('cairn -p on the offline model (built binary, real process)', () => {
  it('read a.txt: a line-numbered read and a summary that uses it', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p', 'read a.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    expect(run.events[0]).toMatchObject({ type: 'session_start', provider: 'offline', offline: true });
    const result = ofType(run.events, 'tool_result')[0]!;
    expect(result).toMatchObject({ name: 'read_file', is_error: false });
    expect(result.content).toMatch(/1\tone\n\s*2\ttwo\n\s*3\tthree/);
    const end = ofType(run.events, 'terminal')[0]!;
    expect(end.reason).toBe('completed');
    expect(end.result).toMatch(/a\.txt.*3 lines/);
  });

  it('两个并行读取然后写入 (Chinese): reads in parallel, write allowed by a rule', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p', '读 a.txt 读 b.txt 然后往 c.txt 写入 hello', '--output-format', 'stream-json', '--allowed-tools', 'Write'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    const starts = ofType(run.events, 'tool_start');
    expect(starts.map((s) => [s.name, s.parallel])).toEqual([['read_file', true], ['read_file', true], ['write_file', false]]);
    expect(await fs.readFile(path.join(ws.dir, 'c.txt'), 'utf8')).toBe('hello\n');
  });

  it('two parallel reads then a write: headless denies the write with a reason the model reads', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p', 'read a.txt read b.txt then write hello to c.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    const starts = ofType(run.events, 'tool_start');
    expect(starts.filter((s) => s.parallel).map((s) => s.name)).toEqual(['read_file', 'read_file']);
    const denied = ofType(run.events, 'permission_denied');
    expect(denied).toHaveLength(1);
    expect(denied[0]!.name).toBe('write_file');
    await expect(fs.access(path.join(ws.dir, 'c.txt'))).rejects.toThrow();
    expect(ofType(run.events, 'terminal')[0]!.result).toMatch(/write_file.*failed.*Permission denied/);
  });

  it('acceptEdits writes without asking', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p', 'read a.txt read b.txt then write hello to c.txt', '--permission-mode', 'acceptEdits'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Wrote `c.txt`/);
    expect(await fs.readFile(path.join(ws.dir, 'c.txt'), 'utf8')).toBe('hello\n');
  });

  it('run <command> passes the command verbatim; a prefix rule allows it, a compound part does not', async () => {
    const ws = await tempWorkspace(files);
    const ok = await runCairn(['-p', 'run echo "a  b" && echo done', '--output-format', 'stream-json', '--allowed-tools', 'Bash(echo:*)'], { cwd: ws.dir, home: ws.home });
    const start = ofType(ok.events, 'tool_start')[0]!;
    expect(start.input).toEqual({ command: 'echo "a  b" && echo done' });
    expect(ofType(ok.events, 'tool_result')[0]!.content).toMatch(/a {2}b\ndone/);

    // The rule's reach, without the sandbox's own yes to a workspace command.
    const compound = await runCairn(['-p', 'run echo hi && touch pwned', '--output-format', 'stream-json', '--allowed-tools', 'Bash(echo:*)', '--no-sandbox'], { cwd: ws.dir, home: ws.home });
    expect(ofType(compound.events, 'permission_denied')).toHaveLength(1);
    await expect(fs.access(path.join(ws.dir, 'pwned'))).rejects.toThrow();
  });

  it('运行 <command> runs in the workspace with bypassPermissions, and dangerous commands are still denied', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p', '运行 pwd', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions'], { cwd: ws.dir, home: ws.home });
    expect(ofType(run.events, 'tool_result')[0]!.content).toContain(ws.dir);
    const danger = await runCairn(['-p', 'run sudo rm -rf /', '--output-format', 'stream-json', '--permission-mode', 'bypassPermissions'], { cwd: ws.dir, home: ws.home });
    expect(ofType(danger.events, 'permission_denied')).toHaveLength(1);
  });

  it('edit <file>: replace <old> with <new>', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p', 'edit src/main.ts: replace "hi" with "hello"', '--output-format', 'stream-json', '--permission-mode', 'acceptEdits'], { cwd: ws.dir, home: ws.home });
    // Read first: edit_file changes only a file read in this session.
    expect(ofType(run.events, 'tool_result').map((r) => `${r.name}${r.is_error ? ' (failed)' : ''}`)).toEqual(['read_file', 'edit_file']);
    const result = ofType(run.events, 'tool_result')[1]!;
    expect(result.is_error).toBe(false);
    expect(result.content).toMatch(/-const greeting = "hi";\n\+const greeting = "hello";/);
    expect(await fs.readFile(path.join(ws.dir, 'src/main.ts'), 'utf8')).toContain('"hello"');
  });

  it('list <dir> and grep <pattern> are read-only and allowed', async () => {
    const ws = await tempWorkspace(files);
    const list = await runCairn(['-p', 'list .', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(ofType(list.events, 'tool_result')[0]!.content).toMatch(/a\.txt[\s\S]*src\//);
    const grep = await runCairn(['-p', 'grep TODO', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(ofType(grep.events, 'tool_result')[0]!.content).toMatch(/src\/main\.ts:2:.*TODO/);
  });

  it('stream <N> streams markdown in small deltas', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', 'stream 300', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    const deltas = ofType(run.events, 'text_delta');
    expect(deltas.length).toBeGreaterThan(100);
    const text = deltas.map((d) => d.text).join('');
    expect(text).toMatch(/^## /m);
    expect(text).toContain('```');
    expect(text).toMatch(/^\| /m);
    expect(ofType(run.events, 'terminal')[0]!.result).toBe(text);
  });

  it('piped stdin becomes the prompt; text output prints the answer; offline is announced', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p'], { cwd: ws.dir, home: ws.home, stdin: 'read b.txt\n' });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Read `b.txt`: 2 lines/);
    expect(run.stderr).toMatch(/offline scripted model/);
  });

  it('json output and a non-zero exit with a one-line reason when max turns is hit', async () => {
    const ws = await tempWorkspace(files);
    const run = await runCairn(['-p', 'read a.txt', '--output-format', 'json', '--max-turns', '1'], { cwd: ws.dir, home: ws.home });
    expect(run.code).not.toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'result', reason: 'max_turns' });
    expect(run.stderr.trim().split('\n').at(-1)).toMatch(/^cairn: max_turns: /);
  });

  it('rejects bad flags with a message naming the flag', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', 'hi', '--permission-mode', 'yolo'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--permission-mode: expected one of default, acceptEdits, plan, auto, bypassPermissions/);
  });
});
