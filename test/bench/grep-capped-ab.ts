import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The grep tool at the 250-result cap (no large-output saver) on the search bench's big tree, timed as that bench
// times it (medians of 5 after a warm-up), for one build or several side by side: each argument is a build's
// `dist` folder (default this one). Usage: node dist/test/bench/grep-capped-ab.js [distA distB ...]
// Build search-bench's tree first (node dist/test/bench/search-bench.js).

const TREE = path.join(tmpdir(), 'cairn-search-bench-v1-x2');
const CASES: { pattern: string; mode: 'files_with_matches' | 'content' }[] = [
  { pattern: 'useState', mode: 'files_with_matches' },
  { pattern: 'createElement', mode: 'files_with_matches' },
  { pattern: 'function', mode: 'files_with_matches' },
  { pattern: 'WeakMap', mode: 'files_with_matches' },
  { pattern: 'Symbol\\.iterator', mode: 'content' },
];

function cpuMs(): number {
  const own = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (own.user + own.system) / 1000 + (Number(fields[13]) + Number(fields[14])) * 10;
}

type GrepCall = (input: { pattern: string; output_mode: string }, ctx: { cwd: string; signal: AbortSignal }) => Promise<{ display?: unknown }>;

const dists = process.argv.length > 2 ? process.argv.slice(2) : [path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')];
const tools: { dist: string; call: GrepCall }[] = [];
for (const dist of dists) {
  const mod = (await import(pathToFileURL(path.join(path.resolve(dist), 'src', 'tools', 'grep.js')).href)) as { createGrepTool: (o: { maxResults: number }) => { call: GrepCall } };
  const tool = mod.createGrepTool({ maxResults: 250 });
  tools.push({ dist, call: (input, ctx) => tool.call(input, ctx) });
}
const ctx = { cwd: TREE, signal: new AbortController().signal };
for (const c of CASES) {
  for (const { dist, call } of tools) {
    const input = { pattern: c.pattern, output_mode: c.mode };
    const first = await call(input, ctx);
    const runs: { cpu: number; wall: number }[] = [];
    for (let i = 0; i < 5; i++) {
      const c0 = cpuMs();
      const w0 = performance.now();
      await call(input, ctx);
      runs.push({ wall: performance.now() - w0, cpu: cpuMs() - c0 });
    }
    const median = (k: 'cpu' | 'wall'): number => runs.map((r) => r[k]).sort((a, b) => a - b)[2] ?? 0;
    process.stdout.write(`${c.pattern} ${c.mode} cap 250, ${dist}: wall ${median('wall').toFixed(0)} ms, CPU ${median('cpu').toFixed(0)} ms ${JSON.stringify(first.display)}\n`);
  }
}
