// Sandbox start-up cost per bash command: median of 100 `true` runs through the real bash tool,
// sandboxed (bubblewrap, with and without the network bridge) and not.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildPolicy } from '../../src/sandbox/policy.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../src/sandbox/sandbox-settings.js';
import { createBashTool } from '../../src/tools/bash.js';
import type { AnyTool } from '../../src/tools/tool.js';

export interface SandboxBench {
  available: boolean;
  plainMs: number;
  sandboxedMs?: number;
  sandboxedNoNetworkBridgeMs?: number;
}

const RUNS = 100;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

async function medianOf(tool: AnyTool, cwd: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const r = await tool.call({ command: 'true' }, { cwd, signal: new AbortController().signal });
    times.push(performance.now() - start);
    if (r.isError) throw new Error(`true failed: ${r.content}`);
  }
  return median(times);
}

export async function benchSandbox(): Promise<SandboxBench> {
  const ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-sandbox-bench-')));
  const make = (network: SandboxSettings['network']) =>
    createSandbox({
      settings: { ...DEFAULT_SANDBOX_SETTINGS, enabled: true, network },
      policy: (tempDir) => buildPolicy({ workspace: ws, tempDir, home: os.homedir(), network }),
    });
  const bridged = make({ allowedDomains: [], allowAll: false });
  const open = make({ allowedDomains: [], allowAll: true });
  try {
    const plainMs = await medianOf(createBashTool(), ws);
    const availability = await bridged.ready();
    if (!availability.available) return { available: false, plainMs };
    await open.ready();
    return {
      available: true,
      plainMs,
      sandboxedMs: await medianOf(createBashTool({ sandbox: bridged }), ws),
      sandboxedNoNetworkBridgeMs: await medianOf(createBashTool({ sandbox: open }), ws),
    };
  } finally {
    bridged.close();
    open.close();
    await fs.rm(ws, { recursive: true, force: true });
  }
}
