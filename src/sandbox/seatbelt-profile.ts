import type { SandboxPolicy } from './policy.js';

// The same policy as a macOS Seatbelt profile for `sandbox-exec -p <profile> bash -c <command>`.
// Later rules win in SBPL, so the read-only carve-outs come after the writable roots. macOS has no
// network namespace: the command may connect only to cairn's proxy on a loopback port.

/** An SBPL string literal. */
function q(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export interface SeatbeltOptions {
  /** The loopback port of cairn's network proxy, when the network is restricted. */
  proxyPort?: number;
}

export function seatbeltProfile(policy: SandboxPolicy, options: SeatbeltOptions = {}): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    '(allow file-write-data (literal "/dev/null") (literal "/dev/tty") (literal "/dev/zero"))',
  ];
  if (policy.writable.length > 0) lines.push(`(allow file-write* ${policy.writable.map((w) => `(subpath ${q(w)})`).join(' ')})`);
  const readOnly = [
    ...policy.readOnly.map((p) => `(subpath ${q(p)})`),
    ...policy.uncreatable.map((u) => (u.kind === 'dir' ? `(subpath ${q(u.path)})` : `(literal ${q(u.path)})`)),
  ];
  if (readOnly.length > 0) lines.push(`(deny file-write* ${[...new Set(readOnly)].join(' ')})`);
  if (policy.denyRead.length > 0) lines.push(`(deny file-read* ${policy.denyRead.map((p) => `(subpath ${q(p)})`).join(' ')})`);
  if (!policy.network.restricted) {
    lines.push('(allow network*)');
  } else if (options.proxyPort !== undefined) {
    lines.push(`(allow network-outbound (remote tcp ${q(`localhost:${options.proxyPort}`)}))`);
  }
  return `${lines.join('\n')}\n`;
}
