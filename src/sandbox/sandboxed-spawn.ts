import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { bwrapArgs, readOnlyBwrapArgs, type PathKind } from './bwrap-args.js';
import { explainRefusals, refusedPaths, type Refusals } from './explain.js';
import { landingPlace, linkedProtectedPlaces } from '../permissions/protected-paths.js';
import { gitConfiguredPlaces } from './git-configured-places.js';
import { nestedProtectedPlaces } from './nested-protected.js';
import { adoptBridge, BRIDGE_CHILD_FD } from './network-bridge.js';
import { startNetworkProxy, type DomainDecider } from './network-proxy.js';
import { SWEPT_AFTER, type SandboxPolicy } from './policy.js';
import { watchPrivateTmp } from './private-tmp.js';
import { seatbeltCommand } from './seatbelt-command.js';

/** A command ready to spawn (detached, in the workspace), and what to do once it has ended. */
export interface PreparedCommand {
  file: string;
  args: string[];
  sandboxed: boolean;
  /** read-only: the command was judged read-only and runs where nothing can be written and nothing reached. */
  profile?: SandboxProfile;
  /** Descriptors the child gets after the bridge's channel (the seccomp program bwrap reads); closed by finish. */
  passFds?: number[];
  /** The child gets an IPC channel as fd 3 (the network bridge's, network-bridge.ts), and this is called with it once spawned (shells/launch-stdio.ts). */
  attach?(child: ChildProcess): void;
  /** Tears down what the command needed; returns a note for the result when the sandbox refused something. */
  finish(output: string): Promise<string | undefined>;
  /** After finish: the domains and paths the sandbox refused, if any. */
  refusals?(): Refusals | undefined;
}

/** workspace: writes in the workspace (protected paths excepted), network by domain; read-only: no writes, no network. */
export type SandboxProfile = 'workspace' | 'read-only';

export interface SandboxedSpawnInput {
  policy: SandboxPolicy;
  profile?: SandboxProfile;
  command: string;
  emptyFile: string;
  emptyDir: string;
  /** The session's private folder of cairn's (the quarantine of swept files goes there). */
  socketDir: string;
  decide: DomainDecider;
  /** Placeholders of absent protected names in use, with how many running commands hold each. */
  placeholders: Map<string, number>;
  retryHint: boolean;
  /** The user approved this call: a write it makes to the session's private /tmp is pointed out (they meant the machine's). */
  approvedByUser?: boolean;
  bwrap?: string;
  /** darwin: Seatbelt (`sandbox-exec`) instead of bubblewrap; default this machine's. */
  platform?: NodeJS.Platform;
  /** A file holding seccomp-filter.ts's program (no Unix sockets), where this machine has one. */
  seccompFilter?: string;
  /** The Node program that runs the network bridge inside; default the one running cairn. */
  node?: string;
}

/**
 * The seccomp program as a descriptor for the child: fd 3, or 4 after the bridge's channel (a fresh
 * open each time: bwrap reads it to the end, and a shared offset would leave the next command an empty one).
 */
function openFilter(input: SandboxedSpawnInput, afterBridge = false): { passFds?: number[]; seccompFd?: number; release(): void } {
  if (input.seccompFilter === undefined) return { release: () => undefined };
  const fd = openSync(input.seccompFilter, 'r');
  let open = true;
  return {
    passFds: [fd],
    seccompFd: BRIDGE_CHILD_FD + (afterBridge ? 1 : 0),
    release: () => {
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function kindOf(p: string): PathKind | undefined {
  try {
    const s = statSync(p);
    return s.isDirectory() ? 'dir' : 'file';
  } catch {
    return undefined;
  }
}

/** Removes a placeholder bwrap made on the host, if it is still the empty thing it made. */
function removePlaceholder(p: string, kind: PathKind): void {
  try {
    const s = lstatSync(p);
    if (kind === 'file' && s.isFile() && s.size === 0) unlinkSync(p);
    else if (kind === 'dir' && s.isDirectory() && readdirSync(p).length === 0) rmdirSync(p);
  } catch {
    // Already gone, or replaced by something real: leave it.
  }
}

const host = (input: SandboxedSpawnInput): { kind(p: string): PathKind | undefined; isLink(p: string): boolean; emptyFile: string; emptyDir: string } => ({
  kind: (p) => (input.placeholders.has(p) ? undefined : kindOf(p)),
  isLink: (p) => {
    try {
      return lstatSync(p).isSymbolicLink();
    } catch {
      return false;
    }
  },
  emptyFile: input.emptyFile,
  emptyDir: input.emptyDir,
});

function prepareReadOnly(input: SandboxedSpawnInput): PreparedCommand {
  const filter = openFilter(input);
  const plan = readOnlyBwrapArgs(input.policy, { ...host(input), ...(filter.seccompFd !== undefined ? { seccompFd: filter.seccompFd } : {}) }, input.command);
  return {
    file: input.bwrap ?? 'bwrap',
    args: plan.args,
    sandboxed: true,
    profile: 'read-only',
    ...(filter.passFds ? { passFds: filter.passFds } : {}),
    finish: async (output) => {
      filter.release();
      return explainReadOnlyRefusal(output, input.retryHint);
    },
  };
}

/** A note for the model when the read-only sandbox refused a write or a connection: the analysis misjudged the command. */
function explainReadOnlyRefusal(output: string, retryHint: boolean): string | undefined {
  const refused = /Read-only file system|Network is unreachable|Temporary failure in name resolution|Could not resolve host|getaddrinfo E(AI_AGAIN|NOTFOUND)/i.test(output);
  if (!refused) return undefined;
  return [
    'Sandbox: this command ran without approval because it looked read-only, so it ran where nothing can be written and nothing on the network reached; it tried to write or connect, and the operating system refused.',
    retryHint ? 'If it must write or connect, run it again with dangerously_disable_sandbox: true; the user is asked to approve it.' : 'Ask the user to run it, or do the work with the file tools.',
  ].join(' ');
}

/**
 * The policy with each read-only place that is a link (a repository shipping `.cairn -> conf`), or
 * that holds one (`.claude/settings.json -> ../conf/c.json`), also held at its real place, so writing
 * `conf/settings.local.json` is refused as `.cairn/...` is: the permission checker's list of such places.
 */
function withLinkedPlaces(policy: SandboxPolicy): SandboxPolicy {
  const real = policy.readOnly.flatMap((p) => {
    try {
      return lstatSync(p).isSymbolicLink() ? [realpathSync(p)] : [];
    } catch {
      return [];
    }
  });
  const roots = policy.writable.filter((w) => w !== policy.tempDir);
  const inside = roots.flatMap((root) => linkedProtectedPlaces(root));
  const all = [...real, ...inside];
  const withLinks = all.length === 0 ? policy : { ...policy, readOnly: [...new Set([...policy.readOnly, ...all])] };
  return { ...withLinks, uncreatable: policy.uncreatable.flatMap((u) => danglingGuard(u, roots)) };
}

/**
 * An absent protected name that is a dangling link (`.cairn -> conf`, no `conf` yet): nothing can be
 * mounted on the link itself (bwrap would fail to start every command), so its placeholder goes where
 * the link leads, if that is in a writable folder; elsewhere the command cannot create it anyway.
 */
function danglingGuard(u: SandboxPolicy['uncreatable'][number], roots: readonly string[]): SandboxPolicy['uncreatable'] {
  try {
    if (!lstatSync(u.path).isSymbolicLink() || existsSync(u.path)) return [u];
  } catch {
    return [u]; // absent: the placeholder goes on the name itself
  }
  const lands = landingPlace(u.path);
  return roots.some((root) => lands.startsWith(`${root}${path.sep}`)) ? [{ path: lands, kind: u.kind }] : [];
}

/**
 * The policy with the protected places that exist in subfolders of each writable root (nested-protected.ts),
 * the places each root's git configuration runs (git-configured-places.ts), and the paths to sweep after the command: SWEPT_AFTER at each root and in each nested repository.
 */
function withNestedPlaces(policy: SandboxPolicy): { policy: SandboxPolicy; swept: string[] } {
  const roots = policy.writable.filter((w) => w !== policy.tempDir);
  const nested = roots.map((root) => nestedProtectedPlaces(root));
  const configured = roots.map((root) => gitConfiguredPlaces(root));
  const readOnly = [...nested.flatMap((n) => n.readOnly), ...configured.flatMap((c) => c.readOnly)];
  const uncreatable = configured.flatMap((c) => c.uncreatable);
  const swept = [
    ...roots.flatMap((root) => SWEPT_AFTER.map((name) => path.join(root, name))),
    ...nested.flatMap((n) => n.gitDirs.flatMap((git) => SWEPT_AFTER.map((name) => path.join(git, path.relative('.git', name))))),
  ];
  if (readOnly.length === 0 && uncreatable.length === 0) return { policy, swept };
  return {
    policy: { ...policy, readOnly: [...new Set([...policy.readOnly, ...readOnly])], uncreatable: [...policy.uncreatable, ...uncreatable] },
    swept,
  };
}

/** The paths to sweep that a command created: moved out of the workspace into `quarantine`, named for the result. */
function sweep(candidates: readonly string[], before: ReadonlySet<string>, quarantine: string): string[] {
  const moved: string[] = [];
  for (const p of candidates) {
    if (before.has(p) || !existsSync(p)) continue;
    try {
      mkdirSync(quarantine, { recursive: true });
      renameSync(p, path.join(quarantine, `${randomUUID().slice(0, 8)}-${path.basename(p)}`));
      moved.push(p);
    } catch (err) {
      moved.push(`${p} (could not be moved: ${(err as Error).message}; remove it before running git)`);
    }
  }
  return moved;
}

/** A result's note with the paths `sweep` moved out named after it. */
function withSweptNote(note: string | undefined, swept: readonly string[]): string | undefined {
  if (swept.length === 0) return note;
  const sweptNote = `Sandbox: the command created ${swept.join(', ')}, which would redirect git to another configuration (code that runs later, outside the sandbox); cairn moved it out of the workspace.`;
  return note === undefined ? sweptNote : `${note}\n${sweptNote}`;
}

/** The bwrap command line for one command, with its network proxy started when the network is restricted. */
export async function prepareSandboxed(input: SandboxedSpawnInput): Promise<PreparedCommand> {
  const { placeholders } = input;
  if ((input.platform ?? process.platform) === 'darwin') return prepareSeatbelt(input);
  if (input.profile === 'read-only') return prepareReadOnly(input);
  const nested = withNestedPlaces(input.policy);
  const policy = withLinkedPlaces(nested.policy);
  const proxy = policy.network.restricted ? await startNetworkProxy({ bridged: true }, input.decide) : undefined;
  const filter = openFilter(input, proxy !== undefined);
  let closeBridge: (() => void) | undefined;
  // A placeholder another running command made is still ours: guard it as absent, not as a real file.
  const plan = bwrapArgs(
    policy,
    { ...host(input), ...(proxy !== undefined ? { bridgeNode: input.node ?? process.execPath } : {}), ...(filter.seccompFd !== undefined ? { seccompFd: filter.seccompFd } : {}) },
    input.command,
  );
  for (const p of plan.placeholders) placeholders.set(p.path, (placeholders.get(p.path) ?? 0) + 1);
  const present = new Set(nested.swept.filter((p) => existsSync(p)));
  const privateTmp = input.approvedByUser === true ? watchPrivateTmp(input.command, policy) : undefined;

  let finished = false;
  let refusals: Refusals | undefined;
  return {
    file: input.bwrap ?? 'bwrap',
    args: plan.args,
    sandboxed: true,
    profile: 'workspace',
    refusals: () => (refusals && refusals.paths.length + refusals.domains.length > 0 ? refusals : undefined),
    ...(filter.passFds ? { passFds: filter.passFds } : {}),
    ...(proxy !== undefined ? { attach: (child: ChildProcess) => void (closeBridge = adoptBridge(child, (socket) => proxy.serve(socket))) } : {}),
    async finish(output) {
      if (finished) return undefined;
      finished = true;
      filter.release();
      closeBridge?.();
      for (const p of plan.placeholders) {
        const left = (placeholders.get(p.path) ?? 1) - 1;
        if (left > 0) {
          placeholders.set(p.path, left);
          continue;
        }
        placeholders.delete(p.path);
        removePlaceholder(p.path, p.kind);
      }
      const domains = proxy ? [...proxy.refused] : [];
      await proxy?.close();
      const swept = sweep(nested.swept, present, path.join(input.socketDir, 'quarantine'));
      refusals = { paths: refusedPaths(output), domains };
      const refused = explainRefusals(refusals, policy.writable, input.retryHint);
      const tmpNote = privateTmp?.report(input.retryHint);
      const note = refused !== undefined && tmpNote !== undefined ? `${refused}\n${tmpNote}` : (refused ?? tmpNote);
      return withSweptNote(note, swept);
    },
  };
}

/**
 * macOS: the same policy as a Seatbelt profile (seatbelt-command.ts). Absent protected names are denied
 * by the profile itself, so no placeholders; the network goes through cairn's proxy on a loopback port.
 */
async function prepareSeatbelt(input: SandboxedSpawnInput): Promise<PreparedCommand> {
  if (input.profile === 'read-only') {
    const { file, args } = seatbeltCommand(input.policy, input.command, { readOnly: true });
    return { file, args, sandboxed: true, profile: 'read-only', finish: async (output) => explainReadOnlyRefusal(output, input.retryHint) };
  }
  const nested = withNestedPlaces(input.policy);
  const policy = withLinkedPlaces(nested.policy);
  const proxy = policy.network.restricted ? await startNetworkProxy({ loopback: true }, input.decide) : undefined;
  const { file, args } = seatbeltCommand(policy, input.command, proxy?.port !== undefined ? { proxyPort: proxy.port } : {});
  const present = new Set(nested.swept.filter((p) => existsSync(p)));
  let finished = false;
  let refusals: Refusals | undefined;
  return {
    file,
    args,
    sandboxed: true,
    profile: 'workspace',
    refusals: () => (refusals && refusals.paths.length + refusals.domains.length > 0 ? refusals : undefined),
    async finish(output) {
      if (finished) return undefined;
      finished = true;
      const domains = proxy ? [...proxy.refused] : [];
      await proxy?.close();
      const swept = sweep(nested.swept, present, path.join(input.socketDir, 'quarantine'));
      refusals = { paths: refusedPaths(output), domains };
      return withSweptNote(explainRefusals(refusals, policy.writable, input.retryHint), swept);
    },
  };
}
