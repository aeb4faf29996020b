import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGrepTool } from '../../../src/tools/grep.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { waitFor } from '../../helpers/wait-for.js';
import { SEARCH_PATHS, useSearchPath } from '../../helpers/search-paths.js';

let dir: string;
let ctx: ToolContext;
// Forty a's and a character that makes (a+)+$ fail: 2^40 ways to try before it can say no.
const CATASTROPHIC = `${'a'.repeat(40)}!\n`;

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-grep-bounded-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
  await fs.writeFile(path.join(dir, 'ok.txt'), 'plain text\n');
  await fs.writeFile(path.join(dir, 'trap.txt'), CATASTROPHIC);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe.each(SEARCH_PATHS)('on the %s path', (searchPath, ripgrep) => {
  useSearchPath(ripgrep);

  describe('grep with a catastrophic pattern', () => {
    it('gives up after the deadline with a message the model can act on (ripgrep: linear time, it answers)', async () => {
      const tool = createGrepTool({ regexTimeoutMs: 300 });
      const r = await tool.call({ pattern: '(a+)+$' }, ctx);
      if (searchPath === 'ripgrep') {
        // ripgrep's engine runs in time linear in the input, so the pattern cannot run away: the answer is the real one.
        expect(r.isError).toBeFalsy();
        expect(r.content).toBe('No matches for /(a+)+$/ in ..');
        return;
      }
      expect(r.isError).toBe(true);
      expect(r.content).toContain('took longer than 0.3 s on trap.txt');
      expect(r.content).toContain('catastrophic backtracking');
      expect(r.content).toMatch(/simplify/i);
    });

    it('stops at once when interrupted, and the main thread stays free while the pattern runs', async () => {
      const tool = createGrepTool({ regexTimeoutMs: 60_000 });
      const controller = new AbortController();
      const before = process.cpuUsage();
      const pending = tool.call({ pattern: '(a+)+$', path: 'trap.txt', output_mode: 'content' }, { ...ctx, signal: controller.signal });
      // These polls only run if the regex is not blocking this thread; CPU time shows it is running elsewhere.
      await waitFor(() => process.cpuUsage(before).user > 300_000);
      controller.abort();
      const r = await pending;
      expect(r.isError).toBe(true);
      expect(r.content).toBe('grep was interrupted.');
    });

    it('lets a real process answer SIGTERM while the pattern runs', async () => {
      // The process as a user has it: cairn's own SIGTERM handler must run (to restore the terminal) mid-search.
      await build({
        entryPoints: [path.resolve('src/tools/grep.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: path.join(dir, 'grep.mjs'),
        logLevel: 'silent',
      });
      await fs.writeFile(
        path.join(dir, 'child.mjs'),
        `import { createGrepTool } from './grep.mjs';
  process.on('SIGTERM', () => { process.stdout.write('cleaned up\\n'); process.exit(0); });
  void createGrepTool({ regexTimeoutMs: 600000 }).call({ pattern: '(a+)+$', path: 'trap.txt' }, { cwd: process.argv[2], signal: new AbortController().signal });
  const start = process.cpuUsage();
  const poll = setInterval(() => {
    if (process.cpuUsage(start).user < 300000) return;
    clearInterval(poll);
    process.stdout.write('searching\\n');
  }, 5);
  `,
      );
      const child = spawn(process.execPath, [path.join(dir, 'child.mjs'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      try {
        await waitFor(() => out.includes('searching'));
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(out).toContain('cleaned up');
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    });

    it('still finds ordinary matches', async () => {
      const r = await createGrepTool().call({ pattern: 'pla.n', output_mode: 'content' }, ctx);
      expect(r.content).toBe('ok.txt:1:plain text');
    });
  });

  describe('grep on a huge file named explicitly', () => {
    it('searches a 600 MB file in bounded blocks and says which lines it searched only in part', async () => {
      const file = path.join(dir, 'big.txt');
      const handle = await fs.open(file, 'w');
      await handle.write(`needle\n${'x'.repeat(9000)}`, 0);
      await handle.truncate(600 * 1024 * 1024);
      await handle.write('\nneedle at the end\n', 600 * 1024 * 1024);
      await handle.close();
      const r = await createGrepTool().call({ pattern: 'needle', path: 'big.txt', output_mode: 'content' }, ctx);
      expect(r.isError).toBeFalsy();
      expect(r.content.split('\n').slice(0, 2)).toEqual(['big.txt:1:needle', 'big.txt:3:needle at the end']);
      expect(r.content).toContain('line 2 is 629,145,');
      expect(r.content).toContain('only its first 1 MB was searched');
    });
  });
});
