import { proxyVariables } from './network-bridge.js';
import type { SandboxPolicy } from './policy.js';
import { seatbeltProfile } from './seatbelt-profile.js';

// The policy as a macOS command line: `sandbox-exec -p <profile> /usr/bin/env VARS... bash -c <command>`.
// Pure, so the argv is tested as data on Linux; nothing here has run on macOS (README says so).
// macOS has no network namespace: the profile lets the command connect only to cairn's proxy on a
// loopback port, and the same proxy variables as the bubblewrap bridge point every client at it.

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

export interface SeatbeltCommandOptions {
  /** The loopback port of cairn's proxy (the network is restricted). Absent with a restricted network: no network at all. */
  proxyPort?: number;
  /** The read-only profile: nothing writable but the session's temp folder, no network. */
  readOnly?: boolean;
}

/** The read-only profile's policy: the session's temp folder the only writable place, no network. */
function readOnlyPolicy(policy: SandboxPolicy): SandboxPolicy {
  return { ...policy, writable: [policy.tempDir], readOnly: [], uncreatable: [], network: { restricted: true, allowedDomains: [] } };
}

export function seatbeltCommand(policy: SandboxPolicy, command: string, options: SeatbeltCommandOptions = {}): { file: string; args: string[] } {
  const readOnly = options.readOnly === true;
  const effective = readOnly ? readOnlyPolicy(policy) : policy;
  const port = readOnly || !policy.network.restricted ? undefined : options.proxyPort;
  const profile = seatbeltProfile(effective, port !== undefined ? { proxyPort: port } : {});
  const env = [`TMPDIR=${policy.tempDir}`, ...(readOnly ? ['GIT_OPTIONAL_LOCKS=0'] : []), ...(port !== undefined ? proxyVariables(`http://127.0.0.1:${port}`) : [])];
  return { file: SANDBOX_EXEC, args: ['-p', profile, '/usr/bin/env', ...env, 'bash', '-c', command] };
}
