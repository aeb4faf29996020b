import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { AskPermission } from '../../src/permissions/types.js';
import { buildPolicy } from '../../src/sandbox/policy.js';
import { createSandbox, type CommandSandbox } from '../../src/sandbox/sandbox.js';
import { DEFAULT_SANDBOX_SETTINGS, type SandboxSettings } from '../../src/sandbox/sandbox-settings.js';

export interface TestSandboxOptions {
  settings?: Partial<SandboxSettings>;
  additionalDirectories?: string[];
  ask?: AskPermission;
}

/** A real sandbox (bubblewrap) for a workspace, enabled unless the settings say otherwise. */
export async function testSandbox(workspace: string, options: TestSandboxOptions = {}): Promise<CommandSandbox> {
  const settings: SandboxSettings = { ...DEFAULT_SANDBOX_SETTINGS, enabled: true, ...options.settings };
  const sandbox = createSandbox({
    settings,
    policy: (tempDir) =>
      buildPolicy({
        workspace,
        tempDir,
        home: os.homedir(),
        additionalDirectories: options.additionalDirectories ?? [],
        filesystem: settings.filesystem,
        network: settings.network,
      }),
    ...(options.ask ? { ask: () => options.ask } : {}),
  });
  await sandbox.ready();
  return sandbox;
}

/** Host pids of live processes whose command line is exactly `cmdline` (arguments joined by spaces). */
export function pidsWith(cmdline: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const line = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (line === cmdline && state !== 'Z') pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}
