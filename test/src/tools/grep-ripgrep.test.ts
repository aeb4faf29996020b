import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGlobTool } from '../../../src/tools/glob.js';
import { createGrepTool } from '../../../src/tools/grep.js';
import { RIPGREP_ENV, ripgrepPath } from '../../../src/tools/ripgrep-path.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { alive } from '../../helpers/processes.js';
import { useSearchPath } from '../../helpers/search-paths.js';
import { waitFor } from '../../helpers/wait-for.js';

let dir: string;
let ctx: ToolContext;

async function put(rel: string, content: string): Promise<void> {
  const abs = path.join(dir, rel);
  await fs.mkdir(path.dirname(abs), { recursive: true });
  await fs.writeFile(abs, content);
}

/** A stand-in for rg: a real process that runs the given shell script. */
async function fakeRipgrep(script: string): Promise<string> {
  const file = path.join(dir, '..', `fake-rg-${path.basename(dir)}.sh`);
  await fs.writeFile(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-grep-rg-')));
  ctx = { cwd: dir, signal: new AbortController().signal };
  await put('.gitignore', 'ignored/\n');
  await put('src/a.ts', 'needle\n--version\n');
  await put('ignored/b.ts', 'needle\n');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(path.join(dir, '..', `fake-rg-${path.basename(dir)}.sh`), { force: true });
});

describe('grep and glob on the bundled ripgrep', () => {
  useSearchPath(undefined);
  let savedConfig: string | undefined;
  beforeEach(() => {
    savedConfig = process.env.RIPGREP_CONFIG_PATH;
  });
  afterEach(() => {
    if (savedConfig === undefined) delete process.env.RIPGREP_CONFIG_PATH;
    else process.env.RIPGREP_CONFIG_PATH = savedConfig;
  });

  it("a repository's ripgrep config cannot add options (RIPGREP_CONFIG_PATH is not read)", async () => {
    // The attack: a config that turns ignore files off and follows symlinks, planted where the model can write.
    await put('rgrc', '--no-ignore\n--follow\n--files\n');
    process.env.RIPGREP_CONFIG_PATH = path.join(dir, 'rgrc');
    const r = await createGrepTool().call({ pattern: 'needle' }, ctx);
    expect(r.content).toBe('src/a.ts');
    const g = await createGlobTool().call({ pattern: '**/*.ts' }, ctx);
    expect(g.content).toBe('src/a.ts');
  });

  it('a pattern or glob that looks like an option is searched for, not obeyed', async () => {
    const r = await createGrepTool().call({ pattern: '--version', output_mode: 'content' }, ctx);
    expect(r.content).toBe('src/a.ts:2:--version');
    const dashed = await createGrepTool().call({ pattern: '-e', glob: '--files' }, ctx);
    expect(dashed.content).toContain('No matches');
  });
});

describe('grep with a ripgrep that misbehaves', () => {
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env[RIPGREP_ENV];
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[RIPGREP_ENV];
    else process.env[RIPGREP_ENV] = saved;
  });

  it('Esc kills the ripgrep child at once and says the search was interrupted', async () => {
    const pidFile = path.join(dir, '..', `pid-${path.basename(dir)}`);
    process.env[RIPGREP_ENV] = await fakeRipgrep(`echo $$ > '${pidFile}'\nexec sleep 60`);
    const controller = new AbortController();
    const pending = createGrepTool().call({ pattern: 'needle' }, { ...ctx, signal: controller.signal });
    let pid = 0;
    await waitFor(async () => {
      pid = Number((await fs.readFile(pidFile, 'utf8').catch(() => '')).trim());
      return pid > 0;
    });
    expect(alive(pid)).toBe(true);
    controller.abort();
    const r = await pending;
    expect(r.content).toBe('grep was interrupted.');
    await waitFor(() => !alive(pid));
    await fs.rm(pidFile, { force: true });
  });

  it('searches on all of ripgrep\'s threads, and again in walk order only when matches pass twice the cap', async () => {
    // The real ripgrep, behind a script that logs each search's arguments.
    const real = await ripgrepPath({});
    if (real === undefined) throw new Error('no bundled ripgrep');
    const log = path.join(dir, '..', `log-${path.basename(dir)}`);
    process.env[RIPGREP_ENV] = await fakeRipgrep(`echo "$*" >> '${log}'\nexec '${real}' "$@"`);
    for (let i = 0; i < 40; i++) await put(`many/f${String(i).padStart(2, '0')}.txt`, `hay\n${i % 2 === 0 ? 'needle' : 'hay'}\n`);
    const searches = async (): Promise<string[]> => {
      const lines = (await fs.readFile(log, 'utf8').catch(() => '')).split('\n').filter((l) => l.includes('--regexp'));
      await fs.rm(log, { force: true });
      return lines;
    };

    // 20 matching files, cap 25: one search on all threads, its files put in walk order.
    const few = await createGrepTool({ maxResults: 25 }).call({ pattern: 'needle', path: 'many' }, ctx);
    const all = Array.from({ length: 20 }, (_, i) => `many/f${String(i * 2).padStart(2, '0')}.txt`);
    expect(few.content).toBe(all.join('\n'));
    const once = await searches();
    expect(once).toHaveLength(1);
    expect(once[0]).not.toContain('--sort');

    // Cap 10: twice the cap is not passed, so the parallel search runs to its end and its files are cut in walk order.
    const capped = await createGrepTool({ maxResults: 10 }).call({ pattern: 'needle', path: 'many' }, ctx);
    expect(capped.content.split('\n\n')[0]).toBe(all.slice(0, 10).join('\n'));
    expect(capped.content).toContain('Results capped at 10 files');
    expect(await searches()).toHaveLength(1);

    // Cap 5: twice the cap is passed, so the search runs again in walk order and stops at the cut.
    const many = await createGrepTool({ maxResults: 5 }).call({ pattern: 'needle', path: 'many' }, ctx);
    expect(many.content.split('\n\n')[0]).toBe(all.slice(0, 5).join('\n'));
    expect(many.content).toContain('Results capped at 5 files');
    const twice = await searches();
    expect(twice).toHaveLength(2);
    expect(twice[0]).not.toContain('--sort');
    expect(twice[1]).toContain('--sort path');

    process.env[RIPGREP_ENV] = '/nonexistent/cairn-test/rg';
    expect((await createGrepTool({ maxResults: 5 }).call({ pattern: 'needle', path: 'many' }, ctx)).content).toBe(many.content);
    expect((await createGrepTool({ maxResults: 10 }).call({ pattern: 'needle', path: 'many' }, ctx)).content).toBe(capped.content);
    expect((await createGrepTool({ maxResults: 25 }).call({ pattern: 'needle', path: 'many' }, ctx)).content).toBe(few.content);
  });

  it('falls back to the JavaScript search when ripgrep refuses to run', async () => {
    process.env[RIPGREP_ENV] = await fakeRipgrep(`echo 'rg: regex parse error' >&2\nexit 2`);
    const r = await createGrepTool().call({ pattern: 'needle' }, ctx);
    expect(r.content).toBe('src/a.ts');
    const g = await createGlobTool().call({ pattern: '**/*.ts' }, ctx);
    expect(g.content).toBe('src/a.ts');
  });
});
