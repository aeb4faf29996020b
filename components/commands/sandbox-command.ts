import path from 'node:path';
import type { CommandSandbox, SandboxStatus } from '../../src/sandbox/sandbox.js';
import type { SlashCommand } from './registry.js';

const USAGE = 'Usage: /sandbox (status and policy), /sandbox on, /sandbox off';

function within(p: string, workspace: string): string {
  const rel = path.relative(workspace, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : p;
}

/** What /sandbox prints: whether it can run here, whether it is on, and the policy in force. */
export function sandboxReport(s: SandboxStatus): string {
  const availability =
    s.availability === undefined ? 'not checked yet (turn it on to check)' : s.availability.available ? 'yes (bubblewrap works here)' : `no: ${s.availability.reason}`;
  const available = s.availability?.available === true;
  const on = s.enabled
    ? available
      ? 'on for every command. A command that writes only in the writable places below and reaches only allowed domains runs without asking; a write elsewhere (or to .git/hooks, .git/config and the other read-only places) is refused, or asked when cairn can see it coming; a new domain is asked; running outside the sandbox is always asked. sandbox.enabled: false in your settings, --no-sandbox or /sandbox off turns it off.'
      : 'on, but unavailable: commands run without it, and those that may write or connect are asked'
    : s.settings.containUnasked
      ? available
        ? 'on for what runs without asking (read-only commands in a read-only sandbox with no network; rule- and mode-allowed ones in this policy); what you approve runs as approved'
        : 'unavailable: commands that run without asking are judged by the bash analysis alone'
      : 'off (sandbox.enabled is false): commands that run without asking are judged by the bash analysis alone';
  const p = s.policy;
  const domains = p.network.allowedDomains.length > 0 ? p.network.allowedDomains.join(', ') : '(none)';
  const lines = [
    `Sandbox: ${on}`,
    `  available:    ${availability}`,
    `  writable:     ${p.writable.join(', ')}`,
    `  read-only:    ${p.readOnly.map((r) => within(r, p.workspace)).join(', ')} (and everything outside the writable places)`,
    ...(p.denyRead.length > 0 ? [`  hidden:       ${p.denyRead.join(', ')}`] : []),
    `  network:      ${p.network.restricted ? `through cairn's proxy only; allowed: ${domains}` : 'the host network, unrestricted (sandbox.network.allowAll)'}`,
    `  sockets:      ${
      s.settings.network.allowAllUnixSockets === true
        ? 'Unix sockets may be made (sandbox.network.allowAllUnixSockets): a host service whose socket a command can see (in home, the workspace, /var) is reachable; /tmp is the session\'s own and /run empty'
        : 'no Unix socket can be made: a tmux, ssh-agent, gpg-agent, D-Bus, docker or X11 socket is out of reach wherever it is; /tmp is the session\'s own, /run empty, and SSH_AUTH_SOCK, DBUS_SESSION_BUS_ADDRESS, TMUX, DISPLAY and the like are not passed in'
    }`,
    ...(s.approvedDomains.length > 0 ? [`  approved now: ${s.approvedDomains.join(', ')}`] : []),
    `  auto-allow:   ${!s.enabled ? 'off: commands are asked as usual (autoAllowBashIfSandboxed applies once sandbox.enabled is true)' : s.settings.autoAllowBashIfSandboxed ? 'sandboxed commands run without asking (deny and ask rules still apply)' : 'off: commands are asked as usual'}`,
    `  excluded:     ${s.settings.excludedCommands.length > 0 ? s.settings.excludedCommands.join(', ') : '(none)'}`,
    `  outside:      ${s.settings.allowUnsandboxedCommands ? 'a command may be retried outside the sandbox, after your approval' : 'never (allowUnsandboxedCommands is off)'}`,
    ...(s.settings.failIfUnavailable ? ['  failIfUnavailable: commands do not run when the sandbox cannot'] : []),
  ];
  return lines.join('\n');
}

/** /sandbox: status, policy, and switching it on or off for this session. */
export function sandboxCommand(sandbox: CommandSandbox | undefined): SlashCommand {
  return {
    name: 'sandbox',
    description: 'Show the bash sandbox (available, on, policy) or turn it on or off',
    argHint: '[on|off]',
    async run(args, ctx) {
      if (!sandbox) return ctx.print('The sandbox is not available in this session.', 'warning');
      const arg = args.trim().toLowerCase();
      if (arg === '') return ctx.print(sandboxReport(sandbox.status()));
      if (arg !== 'on' && arg !== 'off') return ctx.print(USAGE, 'warning');
      sandbox.setEnabled(arg === 'on');
      if (arg === 'off') return ctx.print('Sandbox off for this session: bash commands run under the permission rules alone, those that run without asking included.');
      const availability = await sandbox.ready();
      if (!availability.available) return ctx.print(`Sandbox on, but unavailable: ${availability.reason}. Commands run without it.`, 'warning');
      ctx.print('Sandbox on for this session: bash commands run inside it.');
    },
  };
}
