import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AgentEventSchema, type AgentEvent } from '../../src/events.js';
import { isClaudeCodeEnvelope } from '../../src/headless-result.js';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
// What `npm start` and the `cairn` bin run: the bundle built from dist/.
export const cairnBin = path.join(repoRoot, 'dist/bundle/main.js');

export interface CairnRun {
  code: number | null;
  stdout: string;
  stderr: string;
  events: AgentEvent[];
}

/** A fresh workspace and CAIRN_HOME in a temp dir, with the given files. */
export async function tempWorkspace(files: Record<string, string> = {}): Promise<{ dir: string; home: string }> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-ws-')));
  const dir = path.join(base, 'ws');
  const home = path.join(base, 'home');
  await fs.mkdir(dir, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await fs.writeFile(path.join(dir, name), content);
  }
  return { dir, home };
}

/** Runs the built cairn as a real child process; parses stdout as stream-json when asked. */
export function runCairn(args: string[], opts: { cwd: string; home: string; env?: Record<string, string>; stdin?: string; timeoutMs?: number }): Promise<CairnRun> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CAIRN_HOME: opts.home, ...opts.env };
    for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'DEEPSEEK_API_KEY', 'CAIRN_PROVIDER', 'CAIRN_MODEL']) {
      if (!opts.env?.[key]) delete env[key];
    }
    const child = spawn(process.execPath, [cairnBin, ...args], { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cairn ${args.join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const events = args.includes('stream-json')
        ? stdout
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line) as unknown)
            .filter((line) => !isClaudeCodeEnvelope(line)) // Claude Code's init and result lines (test/e2e/headless-claude-shape.test.ts)
            .map((line) => AgentEventSchema.parse(line))
        : [];
      resolve({ code, stdout, stderr, events });
    });
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}
