import type { ChildProcess, StdioOptions } from 'node:child_process';

/** What a command's child gets besides its output pipes (the sandbox's: sandboxed-spawn.ts). */
export interface LaunchDescriptors {
  /** Descriptors the child gets after the channel (the sandbox's seccomp program). */
  passFds?: number[];
  /** The child gets an IPC channel as fd 3 (the sandbox's network bridge), and this is called with it once spawned. */
  attach?(child: ChildProcess): void;
}

/** The stdio of a command's child: no stdin, output piped, the channel if asked for, then the descriptors passed. */
export function launchStdio(launch: LaunchDescriptors | undefined): StdioOptions {
  return ['ignore', 'pipe', 'pipe', ...(launch?.attach ? ['ipc' as const] : []), ...(launch?.passFds ?? [])];
}
