import path from 'node:path';
import { bridgeScript, BRIDGE_SOURCE } from './network-bridge.js';
import type { SandboxPolicy } from './policy.js';

// The policy as a bubblewrap command line. Pure: what exists on disk is looked up beforehand
// (sandboxed-spawn.ts) and passed in, so the argv can be tested as data.

export type PathKind = 'file' | 'dir';

export interface BwrapHost {
  /** What each path of the policy is on disk now (undefined: absent). */
  kind(p: string): PathKind | undefined;
  /** An empty, read-only file and directory to mount over protected names that do not exist yet. */
  emptyFile: string;
  emptyDir: string;
  /** Whether a path is a symbolic link (a /var/run that points to /run needs no mount of its own). */
  isLink?(p: string): boolean;
  /**
   * The Node program that runs the network bridge inside (network-bridge.ts), when the network is
   * restricted; the child gets the IPC channel it sends its listener over as fd 3.
   */
  bridgeNode?: string;
  /** The descriptor (as the child sees it) of seccomp-filter.ts's program, which refuses Unix sockets. */
  seccompFd?: number;
}

/**
 * Variables that name a host service's socket or session (an agent, a bus, a display, the terminal
 * multiplexer or editor cairn runs in): not passed in. The sockets they name are out of reach anyway
 * (the private /tmp, the empty /run, the seccomp filter); without the names, programs do not try.
 */
export const HOST_SOCKET_VARIABLES = [
  'SSH_AUTH_SOCK', 'SSH_AGENT_PID', 'GPG_AGENT_INFO', 'GNOME_KEYRING_CONTROL',
  'DBUS_SESSION_BUS_ADDRESS', 'DBUS_SYSTEM_BUS_ADDRESS', 'XDG_RUNTIME_DIR',
  'DISPLAY', 'XAUTHORITY', 'WAYLAND_DISPLAY', 'SWAYSOCK', 'I3SOCK', 'HYPRLAND_INSTANCE_SIGNATURE',
  'TMUX', 'TMUX_PANE', 'STY', 'ZELLIJ', 'ZELLIJ_SESSION_NAME', 'KITTY_LISTEN_ON', 'WEZTERM_UNIX_SOCKET',
  'NVIM', 'NVIM_LISTEN_ADDRESS', 'VSCODE_IPC_HOOK_CLI', 'VSCODE_GIT_IPC_HANDLE', 'DOCKER_HOST', 'PULSE_SERVER',
] as const;

const UNSET_HOST_SOCKETS = HOST_SOCKET_VARIABLES.flatMap((v) => ['--unsetenv', v]);

export interface BwrapPlan {
  args: string[];
  /** Placeholders bwrap creates on the host as mount points for absent protected names; removed afterwards. */
  placeholders: { path: string; kind: PathKind }[];
}

const isUnder = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/**
 * bwrap argv (without the program) for running `bash -c command` under the policy: everything
 * read-only, the writable roots bound read-write, protected paths bound read-only over them, a
 * minimal /dev and /proc, new PID/IPC namespaces (and network, when restricted), no capabilities,
 * killed with cairn.
 */
/**
 * The base of both profiles: the host read-only, a minimal /dev, a /proc of the sandbox's own PID
 * namespace whose kernel settings stay read-only. Run as root (a container, a CI job), a command
 * without capabilities still owns /proc/sys: kernel.core_pattern = '|prog' ran prog as root outside
 * the sandbox at the next crash. bwrap does not cover them when it runs as root, so they are bound
 * read-only from the host's (the same settings; absent ones skipped).
 */
const BASE = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', ...['sys', 'sysrq-trigger', 'irq', 'bus', 'fs'].flatMap((d) => ['--ro-bind-try', `/proc/${d}`, `/proc/${d}`])];

/**
 * What stands in for an absent protected name while a command runs. Outside `.git` an empty folder,
 * whatever the name would be: git does not see an empty folder, so `git add -A` in the sandbox does not
 * commit `.mcp.json` or `.npmrc` placeholders, and writing the name as a file still fails. Inside `.git`
 * (never added) the name's own kind, which git expects.
 */
export function placeholderKind(u: { path: string; kind: PathKind }): PathKind {
  return u.kind === 'file' && path.basename(path.dirname(u.path)) === '.git' ? 'file' : 'dir';
}

export function bwrapArgs(policy: SandboxPolicy, host: BwrapHost, command: string): BwrapPlan {
  const args = [...BASE];
  const placeholders: BwrapPlan['placeholders'] = [];
  // The session's own /tmp and an empty /run: the host's Unix sockets there (tmux, ssh-agent, X11,
  // D-Bus, docker.sock) would be ways out of the sandbox that no network namespace closes. Those
  // elsewhere (home, the workspace, /var) are visible, and refused by the seccomp filter.
  args.push('--bind', policy.tempDir, '/tmp');
  for (const dir of ['/run', '/var/run']) {
    if (host.kind(dir) === 'dir' && !host.isLink?.(dir)) args.push('--tmpfs', dir);
  }
  for (const w of policy.writable) {
    if (w !== policy.tempDir && host.kind(w) === 'dir') args.push('--bind', w, w);
  }
  // A protected path below a writable folder (.git/hooks) is only safe while the folders between stay
  // put: renaming .git and moving a copy with writable hooks in its place would get round it. A
  // folder bound onto itself is a mount point, which cannot be renamed; what is inside stays writable.
  const pinned = new Set<string>();
  for (const ro of policy.readOnly) {
    const root = policy.writable.find((w) => w !== policy.tempDir && isUnder(w, ro) && w !== ro);
    if (root === undefined) continue;
    for (let dir = path.dirname(ro); dir !== root && isUnder(root, dir); dir = path.dirname(dir)) {
      if (pinned.has(dir) || host.kind(dir) !== 'dir' || host.isLink?.(dir)) continue;
      pinned.add(dir);
    }
  }
  for (const dir of [...pinned].sort((a, b) => a.length - b.length)) args.push('--bind', dir, dir);
  hideDenied(policy, host, args);
  for (const ro of policy.readOnly) {
    if (!policy.writable.some((w) => isUnder(w, ro))) continue; // already read-only
    if (host.kind(ro) !== undefined) args.push('--ro-bind', ro, ro);
  }
  // Absent protected names get an empty read-only placeholder mounted over them, if their parent is there to hold it.
  for (const u of policy.uncreatable) {
    if (host.kind(u.path) !== undefined || host.kind(path.dirname(u.path)) !== 'dir') continue;
    const kind = placeholderKind(u);
    placeholders.push({ path: u.path, kind });
    args.push('--ro-bind', kind === 'file' ? host.emptyFile : host.emptyDir, u.path);
  }
  args.push('--unshare-pid', '--unshare-ipc', '--new-session', '--die-with-parent', '--cap-drop', 'ALL');
  if (policy.network.restricted) args.push('--unshare-net');
  if (host.seccompFd !== undefined) args.push('--seccomp', String(host.seccompFd));
  args.push(...UNSET_HOST_SOCKETS, '--setenv', 'TMPDIR', '/tmp', '--chdir', policy.workspace, '--', 'bash', '-c');
  if (policy.network.restricted && host.bridgeNode !== undefined) {
    args.push(bridgeScript(), 'cairn-sandbox', command, host.bridgeNode, BRIDGE_SOURCE);
  } else {
    args.push(command);
  }
  return { args, placeholders };
}

/** The hidden paths of `filesystem.denyRead` (and Read deny rules): a folder becomes empty, a file empty. */
function hideDenied(policy: SandboxPolicy, host: BwrapHost, args: string[]): void {
  for (const hidden of policy.denyRead) {
    const k = host.kind(hidden);
    if (k === 'dir') args.push('--tmpfs', hidden);
    else if (k === 'file') args.push('--ro-bind', host.emptyFile, hidden);
  }
}

/**
 * bwrap argv for a command the permission chain judged read-only and let run unasked: nothing on the
 * machine is writable (the workspace included; /tmp is a scratch tmpfs thrown away at the end), there
 * is no network at all, no Unix socket can be made (host services listening on one stay out of reach),
 * and denied paths are hidden. If the analysis was wrong about the command, the kernel refuses the
 * write or the connection.
 */
export function readOnlyBwrapArgs(policy: SandboxPolicy, host: BwrapHost, command: string): BwrapPlan {
  const args = [...BASE, '--tmpfs', '/tmp'];
  for (const dir of ['/run', '/var/run']) {
    if (host.kind(dir) === 'dir' && !host.isLink?.(dir)) args.push('--tmpfs', dir);
  }
  // The scratch /tmp (and the empty /run) may cover a workspace or an added folder that lives there: bound back, read-only.
  for (const w of policy.writable) {
    if (w !== policy.tempDir && host.kind(w) === 'dir' && ['/tmp', '/run', '/var/run'].some((d) => isUnder(d, w))) args.push('--ro-bind', w, w);
  }
  hideDenied(policy, host, args);
  args.push('--unshare-pid', '--unshare-ipc', '--unshare-net', '--new-session', '--die-with-parent', '--cap-drop', 'ALL');
  if (host.seccompFd !== undefined) args.push('--seccomp', String(host.seccompFd));
  // git status would refresh the index; in a read-only tree it must not even try.
  args.push(...UNSET_HOST_SOCKETS, '--setenv', 'TMPDIR', '/tmp', '--setenv', 'GIT_OPTIONAL_LOCKS', '0', '--chdir', policy.workspace, '--', 'bash', '-c', command);
  return { args, placeholders: [] };
}
