import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createShellManager } from '../../../src/shells/shell-manager.js';
import { PROGRESS_MAX_CHARS } from '../../../src/tools/bash-progress.js';
import { createBashTool, MAX_OUTPUT_CHARS } from '../../../src/tools/bash.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { alive } from '../../helpers/processes.js';
import { holdsFor } from '../../helpers/wait-for.js';

let dir: string;
const tool = createBashTool();
const strays: number[] = [];

function ctxWith(extra: Partial<ToolContext> = {}): ToolContext {
  return { cwd: dir, signal: new AbortController().signal, ...extra };
}


function pidFrom(text: string): number {
  const m = /^(\d+)$/m.exec(text);
  if (!m?.[1]) throw new Error(`no pid in output: ${text}`);
  const pid = Number(m[1]);
  strays.push(pid);
  return pid;
}

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-bash-')));
});
afterEach(async () => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: the test passed its own check.
    }
  }
  await fs.rm(dir, { recursive: true, force: true });
});

describe('bash', () => {
  it('runs in the workspace with CAIRN=1 and returns the output', async () => {
    const r = await tool.call({ command: 'echo "$CAIRN"; pwd' }, ctxWith());
    expect(r.isError).toBe(false);
    expect(r.content).toBe(`1\n${dir}`);
    expect(r.display).toMatchObject({ exitCode: 0, timedOut: false, interrupted: false });
  });

  it('includes stderr and reports a non-zero exit code', async () => {
    const r = await tool.call({ command: 'echo out; echo err >&2; exit 3' }, ctxWith());
    expect(r.isError).toBe(true);
    expect(r.content).toContain('out');
    expect(r.content).toContain('err');
    expect(r.content).toMatch(/\n\nExit code: 3$/);
  });

  it('says "(no output)" for a silent success', async () => {
    const r = await tool.call({ command: 'true' }, ctxWith());
    expect(r).toMatchObject({ content: '(no output)', isError: false });
  });

  it('names the signal when the shell is killed', async () => {
    const r = await tool.call({ command: 'kill -9 $$' }, ctxWith());
    expect(r.isError).toBe(true);
    expect(r.content).toContain('Killed by signal SIGKILL');
  });

  it('kills the whole process group on timeout and keeps the output so far', async () => {
    const started = Date.now();
    const r = await tool.call({ command: 'sleep 30 & echo $!; echo before; sleep 5', timeout: 500 }, ctxWith());
    expect(Date.now() - started).toBeLessThan(4000);
    expect(r.isError).toBe(true);
    expect(r.content).toContain('before');
    expect(r.content).toContain('timed out after 500 ms');
    expect(r.display).toMatchObject({ timedOut: true });
    const pid = pidFrom(r.content);
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 4000, interval: 50 });
  });

  it('escalates to SIGKILL when the group ignores SIGTERM', async () => {
    const r = await tool.call({ command: "trap '' TERM; sleep 30 & echo $!; wait", timeout: 300 }, ctxWith());
    expect(r.content).toContain('timed out');
    const pid = pidFrom(r.content);
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 5000, interval: 50 });
  });

  it('on abort kills the group and says it was interrupted', async () => {
    const controller = new AbortController();
    let pid = 0;
    const r = await tool.call(
      { command: 'sleep 30 & echo $!; sleep 30' },
      ctxWith({
        signal: controller.signal,
        onProgress: (line) => {
          pid = pidFrom(line);
          controller.abort();
        },
      }),
    );
    expect(r.isError).toBe(true);
    expect(r.content).toContain('interrupted');
    expect(r.display).toMatchObject({ interrupted: true });
    expect(pid).toBeGreaterThan(0);
    await vi.waitFor(() => expect(alive(pid)).toBe(false), { timeout: 4000, interval: 50 });
  });

  it('does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await fs.writeFile(path.join(dir, 'marker'), '');
    const r = await tool.call({ command: 'rm marker' }, ctxWith({ signal: controller.signal }));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('interrupted');
    await expect(fs.stat(path.join(dir, 'marker'))).resolves.toBeTruthy();
  });

  it('keeps the head and tail of long output with an omitted-count marker', async () => {
    const full = `${Array.from({ length: 20000 }, (_, i) => String(i + 1)).join('\n')}\n`;
    const r = await tool.call({ command: 'seq 1 20000' }, ctxWith());
    expect(r.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.content.endsWith('19999\n20000')).toBe(true);
    expect(r.content).toContain(`\n... ${full.length - MAX_OUTPUT_CHARS} chars omitted (to see them, redirect the output to a file and read it with read_file) ...\n`);
    expect(r.content.length).toBeLessThan(MAX_OUTPUT_CHARS + 200);
    expect(r.display).toMatchObject({ truncated: true });
  });

  it('streams stdout and stderr lines to onProgress while running', async () => {
    const seen: { text: string; done: boolean }[] = [];
    let done = false;
    // Pieces are appended one after another (each line keeps its newline); lines close together may come in one piece.
    const lines = (): string[] => seen.flatMap((s) => s.text.split('\n').filter((l) => l !== '')).sort();
    const pending = tool.call(
      { command: "echo one; echo two >&2; sleep 0.3; printf 'three'" },
      ctxWith({ onProgress: (text) => seen.push({ text, done }) }),
    );
    await vi.waitFor(() => expect(lines()).toEqual(['one', 'two']), { timeout: 2000 });
    const r = await pending;
    done = true;
    expect(lines()).toEqual(['one', 'three', 'two']);
    expect(seen.every((s) => s.text.endsWith('\n') && !s.done)).toBe(true);
    expect(r.content).toContain('three');
  });

  it('hands a flood of lines to onProgress in a few pieces, all of it in order', async () => {
    // One progress event per line was 100,000 events (and store updates) for seq 1 100000.
    const pieces: string[] = [];
    const r = await tool.call({ command: 'seq 1 100000' }, ctxWith({ onProgress: (text) => pieces.push(text) }));
    expect(r.isError).toBe(false);
    expect(pieces.join('')).toBe(`${Array.from({ length: 100_000 }, (_, i) => String(i + 1)).join('\n')}\n`);
    expect(pieces.length).toBeLessThan(100);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(2 * PROGRESS_MAX_CHARS);
  });

  it('returns promptly when a background child keeps the output pipe open', async () => {
    const started = Date.now();
    const r = await tool.call({ command: 'sleep 20 & echo $!' }, ctxWith());
    expect(Date.now() - started).toBeLessThan(3000);
    expect(r.isError).toBe(false);
    pidFrom(r.content);
  });

  it('exposes the command for permission checks and runs alone', () => {
    expect(tool.command?.({ command: 'ls -la' })).toBe('ls -la');
    expect(tool.kind).toBe('execute');
    expect(tool.effects?.({ command: 'ls' })).toBe('world');
    expect(tool.isConcurrencySafe?.({ command: 'ls' })).toBe(false);
  });

  it('does not offer run_in_background without a shell manager', async () => {
    const schema = z.toJSONSchema(tool.inputSchema) as { properties: Record<string, unknown> };
    expect(Object.keys(schema.properties)).not.toContain('run_in_background');
    // Sent anyway, it is stripped by the schema and the command runs in the foreground.
    const input = tool.inputSchema.parse({ command: 'echo fg', run_in_background: true });
    expect((await tool.call(input, ctxWith())).content).toBe('fg');
  });
});

describe('bash run_in_background', () => {
  it('returns a shell id at once while the command keeps running', async () => {
    const shells = createShellManager({ onEvent: () => {} });
    const bg = createBashTool({ shells });
    const schema = z.toJSONSchema(bg.inputSchema) as { properties: Record<string, { description?: string }> };
    expect(schema.properties['run_in_background']?.description).toBeTruthy();
    try {
      const started = Date.now();
      const r = await bg.call({ command: 'echo $$; sleep 20', run_in_background: true, timeout: 100 }, ctxWith());
      expect(Date.now() - started).toBeLessThan(1000);
      expect(r.isError).toBeFalsy();
      expect(r.content).toMatch(/^Started background shell bash_1\. Read its output with bash_output \{"id": "bash_1"\}/);
      expect(r.display).toMatchObject({ background: true, shellId: 'bash_1' });
      // The timeout (100 ms) does not apply to background shells: still running three times past it.
      await holdsFor(() => shells.list()[0]?.status === 'running', 300, { message: 'the background shell stopped' });
      expect(shells.list()[0]).toMatchObject({ id: 'bash_1', status: 'running', cwd: dir });
      let out = '';
      await vi.waitFor(() => {
        out += shells.read('bash_1')?.newOutput ?? '';
        expect(out).toMatch(/^\d+\n$/);
      });
      pidFrom(out);
    } finally {
      shells.killAll();
    }
  });
});

