import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { askId } from '../permissions/approval-answers.js';
import type { AskPermission } from '../permissions/types.js';
import { UNASKED, type CallApproval } from '../tools/tool.js';
import { cachedProbe, type Availability } from './availability.js';
import { domainAllowed, rootedAt, type SandboxPolicy } from './policy.js';
import type { SandboxSettings } from './sandbox-settings.js';
import { prepareSandboxed, type PreparedCommand } from './sandboxed-spawn.js';
import { unixSocketFilter } from './seccomp-filter.js';

/** What /sandbox shows. */
export interface SandboxStatus {
  availability: Availability | undefined;
  enabled: boolean;
  settings: SandboxSettings;
  policy: SandboxPolicy;
  /** Domains the user approved this session. */
  approvedDomains: string[];
}

export type Prepared = PreparedCommand | { refuse: string };

/** What the bash tool knows of a call when it launches it. */
export interface LaunchRequest {
  /** The model asked to run outside the sandbox (dangerously_disable_sandbox). */
  disable?: boolean;
  /** How the call came to run; absent: unasked. */
  approval?: CallApproval;
}

export interface CommandSandbox {
  /** Probes bubblewrap (once); resolves when it is known whether commands can be sandboxed. */
  ready(): Promise<Availability>;
  /** Whether a call with this command would run inside the sandbox now. */
  sandboxes(command: string, disable?: boolean): boolean;
  /**
   * The command line to spawn, or why the command must not run. What runs without the user's yes
   * runs in the sandbox where it is available (read-only when judged read-only); only a yes runs a
   * command outside it.
   */
  prepare(command: string, request?: LaunchRequest): Promise<Prepared>;
  /** Retry outside the sandbox is offered (behind a normal approval). */
  readonly allowUnsandboxed: boolean;
  /** A sandboxed command runs without asking (the permission chain's other checks still apply). */
  autoAllow(): boolean;
  setEnabled(on: boolean): void;
  /** The places Read deny rules cover, hidden from every sandboxed command as `filesystem.denyRead` is. */
  hideReadDenied(paths: () => Promise<string[]>): void;
  status(): SandboxStatus;
  /**
   * A sandbox of the same settings whose writable root is `dir` instead of the workspace (a subagent's
   * worktree): its own private directory, so close it when that agent is done.
   */
  rootedAt(dir: string): CommandSandbox;
  /** Removes the session's private directory. */
  close(): void;
}

export interface SandboxOptions {
  settings: SandboxSettings;
  /** The policy's writable places and rules (from buildPolicy, with this sandbox's temp dir). */
  policy: (tempDir: string) => SandboxPolicy;
  /** The session's ask channel, looked up when a new domain is met; none: new domains are refused. */
  ask?: () => AskPermission | undefined;
  probe?: () => Promise<Availability>;
}

/** `docker`, `docker *`, `docker:*` cover `docker` and `docker ...`. */
export function isExcluded(command: string, patterns: readonly string[]): boolean {
  const c = command.trim();
  return patterns.some((raw) => {
    const p = raw.trim().replace(/(?::\*| \*|\*)$/, '').trim();
    return p !== '' && (c === p || c.startsWith(`${p} `));
  });
}

export function createSandbox(options: SandboxOptions): CommandSandbox {
  const probe = options.probe ?? cachedProbe();
  const { settings } = options;
  let enabled = settings.enabled;
  let contain = settings.containUnasked;
  let availability: Availability | undefined;
  // Private: mount sources and proxy sockets (read-only inside); tmp/ is the commands' /tmp. Made on
  // first use, so a session that never runs a sandboxed command leaves nothing behind.
  let made: { home: string; emptyDir: string; emptyFile: string; seccompFilter?: string; policy: SandboxPolicy } | undefined;
  const dirs = (): NonNullable<typeof made> => {
    if (made) return made;
    const home = mkdtempSync(path.join(os.tmpdir(), 'cairn-sandbox-'));
    const tempDir = path.join(home, 'tmp');
    mkdirSync(tempDir);
    const emptyDir = path.join(home, 'empty-dir');
    mkdirSync(emptyDir);
    const emptyFile = path.join(home, 'empty-file');
    writeFileSync(emptyFile, '', { mode: 0o444 });
    const filter = unixSocketFilter();
    const seccompFilter = filter === undefined ? undefined : path.join(home, 'no-unix-sockets.bpf');
    if (seccompFilter !== undefined && filter !== undefined) writeFileSync(seccompFilter, filter, { mode: 0o444 });
    made = { home, emptyDir, emptyFile, ...(seccompFilter !== undefined ? { seccompFilter } : {}), policy: options.policy(tempDir) };
    return made;
  };
  const approved = new Set<string>();
  const pending = new Map<string, Promise<boolean>>();
  const placeholders = new Map<string, number>();

  const askDomain = async (host: string): Promise<boolean> => {
    const ask = options.ask?.();
    if (!ask) return false;
    const decision = await ask(
      {
        id: `sandbox-network-${randomUUID()}`,
        request_id: askId(),
        name: 'sandbox_network',
        input: { domain: host },
        reason: `a sandboxed command wants to reach ${host}, which is not in sandbox.network.allowedDomains`,
        suggestions: [],
      },
      AbortSignal.timeout(10 * 60_000),
    );
    return decision.behavior === 'allow';
  };
  const decide = (host: string): Promise<boolean> => {
    if (domainAllowed(host, dirs().policy.network.allowedDomains) || approved.has(host.toLowerCase())) return Promise.resolve(true);
    const key = host.toLowerCase();
    let answer = pending.get(key);
    if (!answer) {
      answer = askDomain(host)
        .catch(() => false)
        .then((ok) => {
          pending.delete(key);
          if (ok) approved.add(key);
          return ok;
        });
      pending.set(key, answer);
    }
    return answer;
  };

  const usable = (): boolean => enabled && availability?.available === true;
  let readDenies: (() => Promise<string[]>) | undefined;
  const withReadDenies = async (policy: SandboxPolicy): Promise<SandboxPolicy> => {
    const extra = readDenies ? await readDenies() : [];
    return extra.length === 0 ? policy : { ...policy, denyRead: [...new Set([...policy.denyRead, ...extra])] };
  };

  return {
    async ready() {
      availability = await probe();
      return availability;
    },
    sandboxes: (command, disable) => usable() && !disable && !isExcluded(command, settings.excludedCommands),
    async prepare(command, request = {}) {
      const approval = request.approval ?? UNASKED;
      if (request.disable === true) {
        // Leaving the sandbox is always the user's call (the permission chain asks for it), or in auto mode its classifier's; never unasked.
        if (!approval.byUser && approval.byClassifier !== true) return { refuse: 'a command runs outside the sandbox only when the user (or, in auto mode, the classifier) approves that call' };
        return settings.allowUnsandboxedCommands || !enabled
          ? unsandboxed(command)
          : { refuse: 'commands cannot run outside the sandbox here (sandbox.allowUnsandboxedCommands is off)' };
      }
      const contained = enabled || (contain && !approval.byUser);
      if (!contained || isExcluded(command, settings.excludedCommands)) return unsandboxed(command);
      if (availability === undefined) availability = await probe();
      if (availability.available !== true) {
        if (enabled && settings.failIfUnavailable) {
          return { refuse: `the sandbox is required (sandbox.failIfUnavailable) but unavailable: ${availability.reason}` };
        }
        return unsandboxed(command);
      }
      const { policy, emptyFile, emptyDir, home, seccompFilter } = dirs();
      const profile = !approval.byUser && approval.readOnly ? 'read-only' : 'workspace';
      // Unix sockets are refused in every sandboxed command, unless the user's settings let the workspace profile make them.
      const filter = profile === 'read-only' || !settings.network.allowAllUnixSockets ? seccompFilter : undefined;
      return prepareSandboxed({
        policy: await withReadDenies(policy),
        profile,
        command,
        emptyFile,
        emptyDir,
        socketDir: home,
        decide,
        placeholders,
        retryHint: settings.allowUnsandboxedCommands || !enabled,
        approvedByUser: approval.byUser,
        ...(filter !== undefined ? { seccompFilter: filter } : {}),
      });
    },
    allowUnsandboxed: settings.allowUnsandboxedCommands,
    autoAllow: () => usable() && settings.autoAllowBashIfSandboxed,
    setEnabled(on) {
      // The user's own switch (/sandbox off): containment of what runs unasked goes with it.
      enabled = on;
      contain = on;
    },
    hideReadDenied(paths) {
      readDenies = paths;
    },
    rootedAt(dir) {
      const child = createSandbox({
        ...options,
        settings: { ...settings, enabled, containUnasked: contain },
        policy: (tempDir) => rootedAt(options.policy(tempDir), dir),
        probe,
      });
      if (readDenies) child.hideReadDenied(readDenies);
      return child;
    },
    status: () => ({ availability, enabled, settings: { ...settings, containUnasked: contain }, policy: dirs().policy, approvedDomains: [...approved] }),
    close() {
      if (made) rmSync(made.home, { recursive: true, force: true });
      made = undefined;
    },
  };
}

function unsandboxed(command: string): PreparedCommand {
  return { file: 'bash', args: ['-c', command], sandboxed: false, finish: async () => undefined };
}
