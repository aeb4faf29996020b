import { describe, expect, it } from 'vitest';
import { bwrapArgs, readOnlyBwrapArgs, type PathKind } from '../../../src/sandbox/bwrap-args.js';
import { buildPolicy } from '../../../src/sandbox/policy.js';

// The bwrap command line as data: what is mounted how, in which order.

const policy = buildPolicy({
  workspace: '/w',
  tempDir: '/s/tmp',
  home: '/home/me',
  additionalDirectories: ['/extra'],
  filesystem: { denyRead: ['~/.aws'], denyWrite: ['secrets'] },
});
const disk: Record<string, PathKind> = { '/w': 'dir', '/w/.git': 'dir', '/w/.git/hooks': 'dir', '/w/.git/config': 'file', '/extra': 'dir', '/s/tmp': 'dir', '/home/me/.aws': 'dir', '/run': 'dir', '/w/secrets': 'file' };
const host = { kind: (p: string) => disk[p], emptyFile: '/s/empty-file', emptyDir: '/s/empty-dir', bridgeNode: '/usr/bin/node' };

/** The argv as [option, ...operands] groups, up to `--`. */
function groups(args: string[]): string[][] {
  const arity: Record<string, number> = { '--unsetenv': 1, '--ro-bind': 2, '--ro-bind-try': 2, '--seccomp': 1, '--bind': 2, '--dev': 1, '--proc': 1, '--tmpfs': 1, '--setenv': 2, '--chdir': 1, '--cap-drop': 1 };
  const out: string[][] = [];
  for (let i = 0; i < args.length && args[i] !== '--'; ) {
    const opt = args[i] ?? '';
    const n = arity[opt] ?? 0;
    out.push(args.slice(i, i + 1 + n));
    i += 1 + n;
  }
  return out;
}

describe('bwrapArgs', () => {
  const plan = bwrapArgs(policy, host, 'npm test');
  const g = groups(plan.args);
  const at = (...group: string[]): number => g.findIndex((x) => x.join(' ') === group.join(' '));

  it('mounts everything read-only first, then the writable places, then the protected paths over them', () => {
    expect(g[0]).toEqual(['--ro-bind', '/', '/']);
    expect(at('--bind', '/s/tmp', '/tmp')).toBeGreaterThan(0);
    expect(at('--tmpfs', '/run')).toBeGreaterThan(0);
    expect(at('--bind', '/w', '/w')).toBeGreaterThan(at('--bind', '/s/tmp', '/tmp'));
    expect(at('--bind', '/extra', '/extra')).toBeGreaterThan(0);
    for (const p of ['/w/.git/hooks', '/w/.git/config', '/w/secrets']) expect(at('--ro-bind', p, p)).toBeGreaterThan(at('--bind', '/w', '/w'));
    expect(at('--tmpfs', '/home/me/.aws')).toBeGreaterThan(0);
  });

  it('guards absent protected names with placeholders, and only those whose parent exists', () => {
    expect(plan.placeholders).toEqual(
      expect.arrayContaining([
        { path: '/w/.claude', kind: 'dir' },
        { path: '/w/.cairn', kind: 'dir' },
        { path: '/w/.mcp.json', kind: 'dir' }, // an empty folder: git does not add it
        { path: '/extra/.git', kind: 'dir' },
      ]),
    );
    expect(plan.placeholders.map((p) => p.path)).not.toContain('/w/.git');
    expect(plan.placeholders.map((p) => p.path)).not.toContain('/extra/.git/hooks'); // its parent is not there
    expect(at('--ro-bind', '/s/empty-dir', '/w/.mcp.json')).toBeGreaterThan(0);
  });

  it('keeps the kernel\'s settings in /proc read-only, after /proc is mounted, in both profiles', () => {
    for (const args of [plan.args, readOnlyBwrapArgs(policy, host, 'ls').args]) {
      const gs = groups(args);
      const proc = gs.findIndex((x) => x.join(' ') === '--proc /proc');
      for (const d of ['/proc/sys', '/proc/sysrq-trigger']) expect(gs.findIndex((x) => x.join(' ') === `--ro-bind-try ${d} ${d}`)).toBeGreaterThan(proc);
    }
  });

  it('isolates the process: new PID, IPC and network namespaces, no capabilities, dies with cairn', () => {
    for (const flag of ['--unshare-pid', '--unshare-ipc', '--unshare-net', '--new-session', '--die-with-parent']) expect(at(flag)).toBeGreaterThan(0);
    expect(at('--cap-drop', 'ALL')).toBeGreaterThan(0);
    expect(at('--setenv', 'TMPDIR', '/tmp')).toBeGreaterThan(0);
    expect(at('--chdir', '/w')).toBeGreaterThan(0);
  });

  it('runs the command through the network bridge, passed as an argument, never spliced into the script', () => {
    const tail = plan.args.slice(plan.args.indexOf('--') + 1);
    expect(tail.slice(0, 2)).toEqual(['bash', '-c']);
    expect(tail[2]).toContain('"$2" -e "$3"'); // the bridge: node, its program
    expect(tail[2]).toContain('exec 3>&-'); // its channel closed before the command
    expect(tail[2]).not.toContain('npm test');
    expect(tail.slice(3, 6)).toEqual(['cairn-sandbox', 'npm test', '/usr/bin/node']);
    expect(tail[6]).toContain("process.send('cairn-network-bridge'");
  });

  it('passes in no variable naming a host socket, in both profiles', () => {
    for (const args of [plan.args, readOnlyBwrapArgs(policy, host, 'ls').args]) {
      const unset = groups(args).filter((x) => x[0] === '--unsetenv').map((x) => x[1]);
      expect(unset).toEqual(expect.arrayContaining(['SSH_AUTH_SOCK', 'DBUS_SESSION_BUS_ADDRESS', 'TMUX', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR']));
    }
  });

  it('keeps the host network and no bridge with network.allowAll', () => {
    const open = bwrapArgs({ ...policy, network: { restricted: false, allowedDomains: [] } }, { kind: host.kind, emptyFile: host.emptyFile, emptyDir: host.emptyDir }, 'true');
    expect(open.args).not.toContain('--unshare-net');
    expect(open.args.slice(-3)).toEqual(['bash', '-c', 'true']);
  });

  it('loads the no-Unix-socket seccomp program it is given in every profile: read-only, an open network, and under the network bridge', () => {
    const seccomp = (args: string[]): string | undefined => (args.includes('--seccomp') ? args[args.indexOf('--seccomp') + 1] : undefined);
    expect(seccomp(readOnlyBwrapArgs(policy, { ...host, seccompFd: 3 }, 'ls').args)).toBe('3');
    expect(seccomp(bwrapArgs({ ...policy, network: { restricted: false, allowedDomains: [] } }, { kind: host.kind, emptyFile: host.emptyFile, emptyDir: host.emptyDir, seccompFd: 3 }, 'true').args)).toBe('3');
    expect(seccomp(bwrapArgs(policy, { ...host, seccompFd: 4 }, 'npm test').args)).toBe('4');
    expect(seccomp(readOnlyBwrapArgs(policy, host, 'ls').args)).toBeUndefined();
  });
});
