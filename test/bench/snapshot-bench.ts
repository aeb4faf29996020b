// Workspace snapshots (issue 38 item 4): what a bash command costs for rewind to cover it, on a
// committed 10,000-file repository. The first snapshot (taken when the session starts) hashes every
// file; each one before and after a command then hashes only what changed.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { WorkspaceSnapshots } from '../../src/session/workspace-snapshots.js';

export interface SnapshotBench {
  files: number;
  firstMs: number;
  medianMs: number;
  maxMs: number;
  /** Before, after and reading the changed files back, for a command that changed one file. */
  commandMs: number;
  storeBytes: number;
}

const FOLDERS = 100;
const PER_FOLDER = 100;
const RUNS = 20;

async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) total += (await fs.stat(path.join(entry.parentPath, entry.name))).size;
  }
  return total;
}

export async function benchSnapshots(): Promise<SnapshotBench> {
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-snapshot-bench-')));
  const repo = path.join(root, 'repo');
  try {
    for (let d = 0; d < FOLDERS; d++) {
      await fs.mkdir(path.join(repo, 'src', `d${d}`), { recursive: true });
      await Promise.all(Array.from({ length: PER_FOLDER }, (_, f) => fs.writeFile(path.join(repo, 'src', `d${d}`, `f${f}.ts`), `export const v${d}_${f} = ${d * f};\n`)));
    }
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@b', ...args], { cwd: repo, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'init');
    const snapshots = new WorkspaceSnapshots(path.join(root, 'store'), repo);
    let start = performance.now();
    let tree = await snapshots.snapshot();
    const firstMs = performance.now() - start;
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await fs.writeFile(path.join(repo, 'src', `d${i}`, 'f0.ts'), `export const changed = ${i};\n`);
      start = performance.now();
      tree = await snapshots.snapshot();
      times.push(performance.now() - start);
    }
    start = performance.now();
    const before = await snapshots.snapshot();
    await fs.writeFile(path.join(repo, 'src', 'd50', 'f50.ts'), 'export const last = 1;\n');
    const after = await snapshots.snapshot();
    const changes = await snapshots.changes(before, after);
    const commandMs = performance.now() - start;
    if (changes.files.length !== 1 || tree === after) throw new Error(`snapshot bench: expected one changed file, got ${changes.files.length}`);
    times.sort((a, b) => a - b);
    return {
      files: FOLDERS * PER_FOLDER,
      firstMs,
      medianMs: times[Math.floor(times.length / 2)] ?? 0,
      maxMs: times[times.length - 1] ?? 0,
      commandMs,
      storeBytes: await folderBytes(path.join(root, 'store')),
    };
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
