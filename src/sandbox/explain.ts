// What a command that failed because of the sandbox is told: which paths and domains were refused.

const READ_ONLY = /Read-only file system/;

/** Paths the output says could not be written because the file system is read-only. */
export function refusedPaths(output: string): string[] {
  const found = new Set<string>();
  for (const line of output.split('\n')) {
    if (!READ_ONLY.test(line)) continue;
    const quoted = /['‘`"]([^'’`"]+)['’`"]/.exec(line)?.[1];
    const plain = /(?:^|: )(\/[^:]*|[^:\s][^:]*): Read-only file system/.exec(line)?.[1];
    const p = quoted ?? plain;
    if (p !== undefined) found.add(p.replace(/^(?:bash: |line \d+: )+/, ''));
  }
  return [...found];
}

export interface Refusals {
  paths: string[];
  domains: string[];
}

/** The note appended to a result, or undefined when the sandbox refused nothing. */
export function explainRefusals(r: Refusals, writable: readonly string[], retryHint: boolean): string | undefined {
  const lines: string[] = [];
  if (r.paths.length > 0) {
    lines.push(
      `The sandbox refused writing ${r.paths.join(', ')}: commands may write only in ${writable.join(', ')} (protected files such as .git/hooks, .git/config, .claude/, .cairn/, .mcp.json stay read-only).`,
    );
  }
  if (r.domains.length > 0) {
    lines.push(`The sandbox refused network access to ${r.domains.join(', ')}: not in sandbox.network.allowedDomains and not approved.`);
  }
  if (lines.length === 0) return undefined;
  lines.push(
    retryHint
      ? 'If the command really needs this, run it again with dangerously_disable_sandbox: true; the user will be asked to approve it.'
      : 'Commands cannot run outside the sandbox here (sandbox.allowUnsandboxedCommands is off); ask the user to run it themselves.',
  );
  return lines.join('\n');
}
