import { execFile } from 'node:child_process';
import { SANDBOX_EXEC } from './seatbelt-command.js';

export type Availability = { available: true } | { available: false; reason: string };

export interface ProbeOptions {
  /** The bwrap program (default `bwrap` on PATH). */
  bwrap?: string;
  /** macOS: the sandbox-exec program (default /usr/bin/sandbox-exec). */
  sandboxExec?: string;
  platform?: NodeJS.Platform;
}

function run(file: string, args: string[]): Promise<{ ok: boolean; why: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (err, _stdout, stderr) => {
      if (!err) return resolve({ ok: true, why: '' });
      const code = (err as NodeJS.ErrnoException).code;
      resolve({ ok: false, why: code === 'ENOENT' ? 'ENOENT' : (stderr.trim() || err.message).split('\n')[0] ?? err.message });
    });
  });
}

/**
 * Whether commands can run under bubblewrap here: the program is installed, and it can make the
 * namespaces the sandbox uses (user namespaces may be disabled by the kernel or an AppArmor rule).
 */
export async function probeSandbox(options: ProbeOptions = {}): Promise<Availability> {
  const platform = options.platform ?? process.platform;
  if (platform === 'darwin') return probeSeatbelt(options.sandboxExec ?? SANDBOX_EXEC);
  if (platform !== 'linux') {
    return { available: false, reason: `the sandbox runs on Linux with bubblewrap; on ${platform} it is not available yet` };
  }
  const bwrap = options.bwrap ?? 'bwrap';
  const probe = await run(bwrap, [
    '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc',
    '--unshare-pid', '--unshare-net', '--unshare-ipc', '--die-with-parent', '--cap-drop', 'ALL', '--', 'true',
  ]);
  if (probe.ok) return { available: true };
  if (probe.why === 'ENOENT') {
    return { available: false, reason: `bubblewrap is not installed (no ${bwrap} on PATH); install it with your package manager, e.g. apt install bubblewrap` };
  }
  return { available: false, reason: `bubblewrap cannot create its namespaces here (are user namespaces disabled?): ${probe.why}` };
}

/** macOS: whether sandbox-exec can apply a profile here (it is deprecated but present on every release so far). */
async function probeSeatbelt(sandboxExec: string): Promise<Availability> {
  const probe = await run(sandboxExec, ['-p', '(version 1)\n(allow default)', '/usr/bin/true']);
  if (probe.ok) return { available: true };
  if (probe.why === 'ENOENT') return { available: false, reason: `sandbox-exec is not on this Mac (no ${sandboxExec})` };
  return { available: false, reason: `sandbox-exec cannot apply a profile here: ${probe.why}` };
}

/** One probe per process: later calls share the first answer. */
export function cachedProbe(options: ProbeOptions = {}): () => Promise<Availability> {
  let answer: Promise<Availability> | undefined;
  return () => (answer ??= probeSandbox(options));
}
