import { spawn, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { buildFileIndex } from '../../src/mentions/file-index.js';
import { createGlobTool } from '../../src/tools/glob.js';
import { createGrepTool, SAVED_GREP_CHARS, SAVED_GREP_RESULTS } from '../../src/tools/grep.js';
import { ripgrepPath } from '../../src/tools/ripgrep-path.js';
import type { ToolContext } from '../../src/tools/tool.js';

// Search at monorepo scale (issue 39): the grep tool, the glob tool and the @ index against `rg` run alone on the
// same big tree, CPU and wall time, medians of 5. The tree is copies of this repository's node_modules under one
// git repository (nested node_modules renamed deps, so neither side skips them), built once in the temp dir.

const COPIES = 2;
const RUNS = 5;
const TREE = path.join(tmpdir(), `cairn-search-bench-v1-x${COPIES}`);

export interface SearchRow {
  name: string;
  cairnCpuMs: number;
  cairnWallMs: number;
  rgCpuMs: number;
  rgWallMs: number;
}

/** CPU of this process plus its reaped children (ripgrep runs as a child), in ms. Linux: /proc/self/stat. */
function cpuMs(): number {
  const own = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  // After ") ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14; clock ticks of 10 ms.
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  return (own.user + own.system) / 1000 + children;
}

async function copyTree(from: string, to: string): Promise<number> {
  let files = 0;
  await fs.mkdir(to, { recursive: true });
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    if (entry.isDirectory()) files += await copyTree(src, path.join(to, entry.name === 'node_modules' ? 'deps' : entry.name));
    else if (entry.isFile()) {
      await fs.copyFile(src, path.join(to, entry.name));
      files++;
    }
  }
  return files;
}

async function bigTree(): Promise<{ root: string; files: number }> {
  const marker = path.join(TREE, '.bench-files');
  if (existsSync(marker)) return { root: TREE, files: Number(await fs.readFile(marker, 'utf8')) };
  await fs.rm(TREE, { recursive: true, force: true });
  const source = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'node_modules');
  let files = 0;
  for (let i = 1; i <= COPIES; i++) files += await copyTree(await fs.realpath(source), path.join(TREE, `copy${i}`));
  execFileSync('git', ['init', '-q'], { cwd: TREE });
  await fs.writeFile(marker, String(files));
  return { root: TREE, files };
}

async function measure(run: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = cpuMs();
    const w0 = performance.now();
    await run();
    wall.push(performance.now() - w0);
    cpu.push(cpuMs() - c0);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  return { cpu: median(cpu), wall: median(wall) };
}

function rgAlone(bin: string, args: string[], cwd: string): () => Promise<void> {
  return () =>
    new Promise((resolve, reject) => {
      const child = spawn(bin, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout.resume();
      child.once('error', reject);
      child.once('close', () => resolve());
    });
}

export async function benchSearch(): Promise<{ files: number; rows: SearchRow[]; peakRssMb: number } | undefined> {
  const bin = await ripgrepPath();
  if (bin === undefined) return undefined;
  const { root, files } = await bigTree();
  const ctx: ToolContext = { cwd: root, signal: new AbortController().signal };
  // As the app builds it (builtin.ts, with a large-output saver): results are not cut at 250.
  const grep = createGrepTool({ maxResults: SAVED_GREP_RESULTS, maxChars: SAVED_GREP_CHARS });
  const glob = createGlobTool();
  const cases: { name: string; cairn: () => Promise<unknown>; rg: string[] }[] = [
    { name: 'grep literal (content)', cairn: () => grep.call({ pattern: 'useLayoutEffect', output_mode: 'content' }, ctx), rg: ['useLayoutEffect', '.'] },
    { name: 'grep regex (content)', cairn: () => grep.call({ pattern: 'use[A-Z]\\w+Effect\\(', output_mode: 'content' }, ctx), rg: ['use[A-Z]\\w+Effect\\(', '.'] },
    { name: 'grep files_with_matches', cairn: () => grep.call({ pattern: 'useLayoutEffect' }, ctx), rg: ['-l', 'useLayoutEffect', '.'] },
    { name: 'glob **/*.d.ts', cairn: () => glob.call({ pattern: '**/*.d.ts' }, ctx), rg: ['--files', '-g', '*.d.ts', '.'] },
  ];
  const rows: SearchRow[] = [];
  for (const c of cases) {
    await c.cairn(); // warm the page cache and the caches each side keeps
    const cairn = await measure(c.cairn);
    const rg = await measure(rgAlone(bin, c.rg, root));
    rows.push({ name: c.name, cairnCpuMs: cairn.cpu, cairnWallMs: cairn.wall, rgCpuMs: rg.cpu, rgWallMs: rg.wall });
  }
  // The @ index walks only outside git: the repository is set aside for that one.
  await fs.rename(path.join(root, '.git'), path.join(root, '.git-aside'));
  try {
    const index = await measure(() => buildFileIndex(root));
    const rg = await measure(rgAlone(bin, ['--files', '.'], root));
    rows.push({ name: '@ index outside git', cairnCpuMs: index.cpu, cairnWallMs: index.wall, rgCpuMs: rg.cpu, rgWallMs: rg.wall });
  } finally {
    await fs.rename(path.join(root, '.git-aside'), path.join(root, '.git'));
  }
  return { files, rows, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

export function printSearch(result: Awaited<ReturnType<typeof benchSearch>>, out: (line: string) => void): void {
  if (!result) {
    out('search at scale: no ripgrep binary for this platform');
    return;
  }
  out(`search on ${result.files.toLocaleString('en-US')} files, medians of ${RUNS}: cairn (tool call in process, rg child included) vs rg alone`);
  out(`${'case'.padEnd(26)} ${'cairn CPU'.padStart(10)} ${'rg CPU'.padStart(8)} ${'x'.padStart(6)}   ${'cairn wall'.padStart(10)} ${'rg wall'.padStart(8)} ${'x'.padStart(6)}`);
  for (const r of result.rows) {
    const cpuX = r.cairnCpuMs / r.rgCpuMs;
    const wallX = r.cairnWallMs / r.rgWallMs;
    out(
      `${r.name.padEnd(26)} ${`${r.cairnCpuMs.toFixed(0)} ms`.padStart(10)} ${`${r.rgCpuMs.toFixed(0)} ms`.padStart(8)} ${cpuX.toFixed(2).padStart(6)}   ${`${r.cairnWallMs.toFixed(0)} ms`.padStart(10)} ${`${r.rgWallMs.toFixed(0)} ms`.padStart(8)} ${wallX.toFixed(2).padStart(6)}   goal <= 1.5x CPU, <= 2x wall`,
    );
  }
  out(`peak RSS of the process over all runs: ${result.peakRssMb.toFixed(0)} MB`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printSearch(await benchSearch(), (line) => process.stdout.write(`${line}\n`));
}
