import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readPipedInput } from '../../src/headless-stdin.js';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';

describe('what a headless run reads from a piped stdin', () => {
  it('with a prompt, a pipe that never sends a byte nor ends is given up after the wait', async () => {
    const stdin = new PassThrough();
    const read = await readPipedInput(stdin, 50);
    expect(read).toEqual({ text: '', gaveUp: true });
    expect(stdin.destroyed).toBe(true);
  });

  it('once a first byte came in time, everything up to the end is read, however slowly it follows', async () => {
    const stdin = new PassThrough();
    const reading = readPipedInput(stdin, 50);
    stdin.write('diff --git a/x b/x\n');
    await new Promise((resolve) => setTimeout(resolve, 120)); // past the first-byte wait: it no longer applies
    stdin.end('+more\n');
    expect(await reading).toEqual({ text: 'diff --git a/x b/x\n+more\n', gaveUp: false });
  });

  it('without a prompt, stdin is the prompt: it is waited for to its end', async () => {
    const stdin = new PassThrough();
    const reading = readPipedInput(stdin, undefined);
    let settled = false;
    void reading.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe(false);
    stdin.end('summarize this');
    expect(await reading).toEqual({ text: 'summarize this', gaveUp: false });
  });

  it('cairn -p "prompt" spawned with a stdin pipe left open answers instead of hanging, and says why it waited', { timeout: 60_000 }, async () => {
    const ws = await tempWorkspace();
    const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: ws.home };
    for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'DEEPSEEK_API_KEY', 'CAIRN_PROVIDER', 'CAIRN_MODEL']) delete env[key];
    // A spawn's default: stdin is a pipe the parent neither writes to nor closes.
    const child = spawn(process.execPath, [cairnBin, '-p', 'hello'], { cwd: ws.dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toContain('cairn: nothing arrived on stdin in 3 s; going on with the prompt alone');
    expect(stdout.length).toBeGreaterThan(0);
  });
});
