// The build, test and lint commands a repository's manifests name (the offline /init's step 3).

export interface ProjectFacts {
  /** The top-level listing (folders end in /). */
  listing: readonly string[];
  /** Files read, by path: their text. */
  files: ReadonlyMap<string, string>;
}

export interface ProjectCommand {
  command: string;
  does: string;
  from: string;
}

const SCRIPT_DOES: Record<string, string> = {
  build: 'build',
  test: 'run the tests',
  lint: 'lint',
  typecheck: 'type-check',
  check: 'the checks',
  format: 'format the code',
  fmt: 'format the code',
  dev: 'run in development',
  start: 'start it',
};

function runner(listing: readonly string[]): string {
  if (listing.includes('pnpm-lock.yaml')) return 'pnpm';
  if (listing.includes('yarn.lock')) return 'yarn';
  if (listing.includes('bun.lockb') || listing.includes('bun.lock')) return 'bun';
  return 'npm';
}

function packageScripts(json: string, listing: readonly string[]): ProjectCommand[] {
  let scripts: unknown;
  try {
    scripts = (JSON.parse(json) as { scripts?: unknown }).scripts;
  } catch {
    return []; // not JSON: no scripts to name
  }
  if (typeof scripts !== 'object' || scripts === null) return [];
  const pm = runner(listing);
  return Object.entries(scripts as Record<string, unknown>).flatMap(([name, body]) => {
    const does = SCRIPT_DOES[name] ?? (/^(test|lint|build)[:-]/.test(name) ? name.replace(/[:-]/, ' ') : undefined);
    if (does === undefined || typeof body !== 'string') return [];
    const command = name === 'test' && pm === 'npm' ? 'npm test' : `${pm} run ${name}`;
    return [{ command, does: `${does}: \`${body}\``, from: 'package.json' }];
  });
}

function makeTargets(text: string, file: string, tool: string): ProjectCommand[] {
  const targets = [...text.matchAll(/^([A-Za-z][\w.-]*)\s*:(?!=)/gm)].map((m) => m[1] ?? '').filter((t) => t !== '' && !t.startsWith('.'));
  return [...new Set(targets)].map((t) => ({ command: `${tool} ${t}`, does: SCRIPT_DOES[t] ?? `the ${t} target`, from: file }));
}

function pythonCommands(text: string): ProjectCommand[] {
  const out: ProjectCommand[] = [];
  if (/\[tool\.pytest|\bpytest\b/.test(text)) out.push({ command: 'pytest', does: 'run the tests', from: 'pyproject.toml' });
  if (/\[tool\.ruff|\bruff\b/.test(text)) out.push({ command: 'ruff check .', does: 'lint', from: 'pyproject.toml' });
  if (/\[tool\.mypy|\bmypy\b/.test(text)) out.push({ command: 'mypy .', does: 'type-check', from: 'pyproject.toml' });
  if (/\[build-system\]/.test(text)) out.push({ command: 'python -m build', does: 'build the package', from: 'pyproject.toml' });
  return out;
}

/** Every command the files read name, in the order the files are listed. */
export function projectCommands(facts: ProjectFacts): ProjectCommand[] {
  const { files, listing } = facts;
  const out: ProjectCommand[] = [];
  const pkg = files.get('package.json');
  if (pkg !== undefined) out.push(...packageScripts(pkg, listing));
  const make = files.get('Makefile');
  if (make !== undefined) out.push(...makeTargets(make, 'Makefile', 'make'));
  const just = files.get('justfile');
  if (just !== undefined) out.push(...makeTargets(just, 'justfile', 'just'));
  const py = files.get('pyproject.toml');
  if (py !== undefined) out.push(...pythonCommands(py));
  if (files.has('Cargo.toml')) {
    out.push({ command: 'cargo build', does: 'build', from: 'Cargo.toml' }, { command: 'cargo test', does: 'run the tests', from: 'Cargo.toml' });
  }
  if (files.has('go.mod')) out.push({ command: 'go build ./...', does: 'build', from: 'go.mod' }, { command: 'go test ./...', does: 'run the tests', from: 'go.mod' });
  return out;
}
