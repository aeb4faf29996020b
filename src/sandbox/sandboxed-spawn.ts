import { randomUUID } from 'node:crypto';
import { lstatSync, readdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { bwrapArgs, type PathKind } from './bwrap-args.js';
import { explainRefusals, refusedPaths } from './explain.js';
import { startNetworkProxy, type DomainDecider } from './network-proxy.js';
import type { SandboxPolicy } from './policy.js';

/** A command ready to spawn (detached, in the workspace), and what to do once it has ended. */
export interface PreparedCommand {
  file: string;
  args: string[];
  sandboxed: boolean;
  /** Tears down what the command needed; returns a note for the result when the sandbox refused something. */
  finish(output: string): Promise<string | undefined>;
}

export interface SandboxedSpawnInput {
  policy: SandboxPolicy;
  command: string;
  emptyFile: string;
  emptyDir: string;
  /** Where this command's proxy socket goes (private to cairn, read-only inside). */
  socketDir: string;
  decide: DomainDecider;
  /** Placeholders of absent protected names in use, with how many running commands hold each. */
  placeholders: Map<string, number>;
  retryHint: boolean;
  bwrap?: string;
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

/** The bwrap command line for one command, with its network proxy started when the network is restricted. */
export async function prepareSandboxed(input: SandboxedSpawnInput): Promise<PreparedCommand> {
  const { policy, placeholders } = input;
  const socket = policy.network.restricted ? path.join(input.socketDir, `proxy-${randomUUID().slice(0, 8)}.sock`) : undefined;
  const proxy = socket === undefined ? undefined : await startNetworkProxy(socket, input.decide);
  // A placeholder another running command made is still ours: guard it as absent, not as a real file.
  const plan = bwrapArgs(policy, {
    kind: (p) => (placeholders.has(p) ? undefined : kindOf(p)),
    isLink: (p) => {
      try {
        return lstatSync(p).isSymbolicLink();
      } catch {
        return false;
      }
    },
    emptyFile: input.emptyFile,
    emptyDir: input.emptyDir,
    ...(socket !== undefined ? { proxySocket: socket } : {}),
  }, input.command);
  for (const p of plan.placeholders) placeholders.set(p.path, (placeholders.get(p.path) ?? 0) + 1);

  let finished = false;
  return {
    file: input.bwrap ?? 'bwrap',
    args: plan.args,
    sandboxed: true,
    async finish(output) {
      if (finished) return undefined;
      finished = true;
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
      return explainRefusals({ paths: refusedPaths(output), domains }, policy.writable, input.retryHint);
    },
  };
}
