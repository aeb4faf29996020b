import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeBash } from '../../../src/permissions/bash/analysis.js';
import { decideBash, type BashCase } from '../../helpers/permission-tools.js';

// Issue 29: a command cairn calls read-only runs without asking in every mode, so the options each program
// may be given are an allowlist. These are the forms that ran with no approval before, and cases generated
// from the real programs' option lists: every unique abbreviation of an option that writes or runs.

const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-allowlist-')));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
const decide = (c: BashCase) => decideBash(workspace, c);
const readOnly = async (command: string): Promise<boolean> => (await analyzeBash(command)).readOnly;

const asked: BashCase[] = [
  // GNU abbreviations and bundles that wrote or ran with no rule at all
  { command: 'sort --out=/tmp/cairn-F a', expected: 'ask' },
  { command: 'sort --outp=F a', expected: 'ask' },
  { command: 'sort -ro F a', expected: 'ask' },
  { command: 'sort -roF a', expected: 'ask' },
  { command: 'sort -S1 --compress-prog=sh a', expected: 'ask' },
  { command: 'sort --temporary-directory=/tmp a', expected: 'ask' },
  { command: 'git grep --open-files=./x.sh foo', expected: 'ask' },
  { command: 'git grep --open=./x.sh foo', expected: 'ask' },
  { command: 'git grep -nO./x.sh foo', expected: 'ask' },
  { command: 'grep --dereference foo -r .', expected: 'ask' },
  { command: 'date --se=2020-01-01', expected: 'ask' },
  { command: 'date 01010000', expected: 'ask' },
  { command: 'file --comp -m magic', expected: 'ask' },
  // words computed at run time can be any option (unquoted, several)
  { command: 'sort -k $X a', expected: 'ask' },
  { command: 'printf $X; ls', expected: 'ask' },
  { command: 'date $X', expected: 'ask' },
  { command: 'grep $X a', expected: 'ask' },
  { command: 'git log $X', expected: 'ask' },
  { command: 'sort *', expected: 'ask' },
  // under prefix rules: options and environment that change what runs or where it writes
  { command: 'npm test --script-sh=./x.sh', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask', reason: /script-sh/ },
  { command: 'npm test --prefi=/tmp/x', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask', reason: /prefi/ },
  { command: 'npm test --userconf=./rc', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask', reason: /userconf/ },
  { command: 'npm test --logs-dir=/tmp/l', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask' },
  { command: 'npm test --cache /tmp/c', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask' },
  { command: 'npm test -sC /tmp/x', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask' },
  { command: 'npm test -prefix /tmp/x', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask' },
  { command: 'pnpm test --config.script-shell=./x.sh', rules: { allow: ['Bash(pnpm test:*)'] }, expected: 'ask' },
  { command: 'Npm_config_script_shell=./evil npm test', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask', reason: /Npm_config/ },
  { command: 'NPM_Config_UserConfig=./rc npm test', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask' },
  { command: 'NODE_V8_COVERAGE=/tmp/cov npm test', rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask', reason: /NODE_V8_COVERAGE/ },
  { command: 'NODE_V8_COVERAGE=cov ls', expected: 'ask' },
  { command: 'git grep --open=./x.sh foo', rules: { allow: ['Bash(git grep:*)'] }, expected: 'ask' },
  { command: 'git grep -nO./x.sh foo', rules: { allow: ['Bash(git grep:*)'] }, expected: 'ask' },
  { command: 'sort --compress-prog=./x.sh a', rules: { allow: ['Bash(sort:*)'] }, expected: 'ask' },
  { command: 'sort --out=/tmp/cairn-F a', rules: { allow: ['Bash(sort:*)'] }, expected: 'ask' },
  { command: 'sort -ro /tmp/cairn-F a', rules: { allow: ['Bash(sort:*)'] }, expected: 'ask' },
  { command: 'sed --in s/a/b/ /tmp/cairn-F', rules: { allow: ['Bash(sed:*)'] }, expected: 'ask' },
  { command: 'cp --target=/tmp a b', rules: { allow: ['Bash(cp:*)'] }, expected: 'ask' },
  { command: 'tar --to-com=./x.sh -xf a.tar', rules: { allow: ['Bash(tar:*)'] }, expected: 'ask' },
  { command: 'rsync -avze ./x.sh a b:', rules: { allow: ['Bash(rsync:*)'] }, expected: 'ask' },
];

const allowed: BashCase[] = [
  { command: 'sort -rn a', expected: 'allow' },
  { command: 'sort -k1,2n -t, -S1M a', expected: 'allow' },
  { command: 'head -n5 a && head -5 a && tail -n +2 a', expected: 'allow' },
  { command: 'grep -rn --include=*.ts foo src', expected: 'allow' },
  { command: 'grep -n foo src/*.ts', expected: 'allow' },
  { command: 'ls -la --color=auto', expected: 'allow' },
  { command: "printf '%s\\n' -a \"$HOME\"", expected: 'allow' },
  { command: 'date +%s', expected: 'allow' },
  { command: 'git status -sb', expected: 'allow' },
  { command: 'git log -5 --oneline --format=%H -n3', expected: 'allow' },
  { command: 'git diff --stat --text HEAD~1', expected: 'allow' },
  { command: 'git grep --text foo', rules: { allow: ['Bash(git grep:*)'] }, expected: 'allow' },
  { command: 'npm test --workspaces --if-present -s', rules: { allow: ['Bash(npm test:*)'] }, expected: 'allow' },
  { command: 'npm test -- --prefix x', rules: { allow: ['Bash(npm test:*)'] }, expected: 'allow' },
  { command: 'NODE_ENV=test npm test', rules: { allow: ['Bash(npm test:*)'] }, expected: 'allow' },
  { command: 'sort -o sorted.txt a', rules: { allow: ['Bash(sort:*)'] }, mode: 'acceptEdits', expected: 'allow' },
];

describe('reproductions of issue 29', () => {
  it.each([...asked, ...allowed].map((c) => [`${c.rules?.allow?.join(' ') ?? 'no rule'}: ${c.command}`, c] as const))('%s', async (_n, c) => {
    const result = await decide(c);
    expect(result.behavior, result.reason).toBe(c.expected);
    if (c.reason) expect(result.reason).toMatch(c.reason);
  });
});

// --- generated: options that write, run or follow links out, per program on the read-only list ---

interface Dangerous {
  /** Long options that write, run a program or follow symlinks out of the workspace. */
  long: string[];
  /** Their short letters. */
  short?: string[];
  /** A flag the program does take, to bundle before the short letter (`-r` + `-o` = `-ro`). */
  flag?: string;
  /** Accepts unique prefixes of long options (GNU getopt_long, git parse-options). */
  abbreviates?: boolean;
  /** How to list its options (the real program's help). */
  help?: string[];
}

const DANGEROUS: Record<string, Dangerous> = {
  sort: { long: ['--output', '--compress-program', '--temporary-directory'], short: ['o', 'T'], flag: 'r', abbreviates: true, help: ['sort', '--help'] },
  date: { long: ['--set'], short: ['s'], flag: 'u', abbreviates: true, help: ['date', '--help'] },
  hostname: { long: ['--file', '--boot'], short: ['F', 'b'], flag: 's', abbreviates: true, help: ['hostname', '--help'] },
  file: { long: ['--compile', '--preserve-date'], short: ['C', 'p'], flag: 'b', abbreviates: true, help: ['file', '--help'] },
  grep: { long: ['--dereference-recursive'], short: ['R'], flag: 'n', abbreviates: true, help: ['grep', '--help'] },
  du: { long: ['--dereference'], short: ['L'], flag: 's', abbreviates: true, help: ['du', '--help'] },
  diff: { long: ['--paginate'], short: ['l'], flag: 'u', abbreviates: true, help: ['diff', '--help'] },
  rg: { long: ['--pre', '--pre-glob', '--hostname-bin', '--follow'], short: ['L'], flag: 'n' },
  tree: { long: ['--fromfile'], short: ['o', 'R', 'l'], flag: 'a' },
  jq: { long: ['--rawfile', '--slurpfile', '--args', '--jsonargs'], flag: 'r' },
  xxd: { long: [], short: ['r'] },
  printf: { long: [], short: ['v'] },
  'git grep': { long: ['--open-files-in-pager', '--textconv'], short: ['O'], flag: 'n', abbreviates: true, help: ['git', 'grep', '-h'] },
  'git blame': { long: ['--textconv'], flag: 'l', abbreviates: true, help: ['git', 'blame', '-h'] },
  'git cat-file': { long: ['--textconv', '--filters'], flag: 'p', abbreviates: true, help: ['git', 'cat-file', '-h'] },
  'git diff': { long: ['--output', '--ext-diff', '--textconv'], flag: 'p' },
  'git log': { long: ['--output', '--ext-diff', '--textconv', '--show-signature'], flag: 'p' },
  'git show': { long: ['--output', '--ext-diff', '--textconv', '--show-signature'], flag: 'p' },
};

const installed = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** The long options a program lists in its help (or none when it is not installed). */
function helpOptions(help: string[] | undefined): string[] {
  if (!help || !installed(help[0] ?? '')) return [];
  const r = spawnSync(help[0] ?? '', help.slice(1), { encoding: 'utf8' });
  const text = `${r.stdout}${r.stderr}`.replace(/--\[no-\]/g, '--');
  return [...new Set(text.match(/--[a-zA-Z][-a-zA-Z0-9]*/g) ?? [])];
}

/** Prefixes of `option` no other option begins with: what getopt_long and git take for it. */
function uniquePrefixes(option: string, all: readonly string[]): string[] {
  const out: string[] = [];
  for (let n = 3; n < option.length; n++) {
    const p = option.slice(0, n);
    if (!all.some((o) => o !== option && o.startsWith(p))) out.push(p);
  }
  return out;
}

interface Generated {
  command: string;
  program: string;
  option: string;
}

function generate(): { cases: Generated[]; abbreviations: Map<string, string[]> } {
  const cases: Generated[] = [];
  const abbreviations = new Map<string, string[]>();
  for (const [program, d] of Object.entries(DANGEROUS)) {
    const all = [...new Set([...helpOptions(d.abbreviates ? d.help : undefined), ...d.long])];
    for (const option of d.long) {
      cases.push({ command: `${program} ${option}=x a`, program, option }, { command: `${program} ${option} x a`, program, option });
      if (!d.abbreviates) continue;
      const prefixes = uniquePrefixes(option, all);
      abbreviations.set(`${program} ${option}`, prefixes);
      for (const p of prefixes) cases.push({ command: `${program} ${p}=x a`, program, option: `${p} (${option})` });
    }
    for (const s of d.short ?? []) {
      cases.push({ command: `${program} -${s} x a`, program, option: `-${s}` }, { command: `${program} -${s}x a`, program, option: `-${s}x` });
      if (d.flag) cases.push({ command: `${program} -${d.flag}${s} x a`, program, option: `-${d.flag}${s}` }, { command: `${program} -${d.flag}${s}x a`, program, option: `-${d.flag}${s}x` });
    }
  }
  return { cases, abbreviations };
}

const { cases, abbreviations } = generate();

describe('generated: options that write, run or follow links are never read-only', () => {
  it('covers every program on the read-only list, with enough cases', async () => {
    const { READ_SPECS } = await import('../../../src/permissions/bash/readonly-programs.js');
    const { GIT_READ } = await import('../../../src/permissions/bash/readonly-git.js');
    const programs = [...Object.keys(READ_SPECS), ...Object.keys(GIT_READ).map((s) => `git ${s}`)];
    // A program with an option that writes or runs must have its row above; the rest take none.
    for (const p of Object.keys(DANGEROUS)) expect(programs, p).toContain(p);
    expect(cases.length).toBeGreaterThanOrEqual(100);
    if (installed('sort')) expect(abbreviations.get('sort --output')).toEqual(['--o', '--ou', '--out', '--outp', '--outpu']);
  });

  it.each(cases.map((c) => [c.command, c] as const))('%s', async (command) => {
    expect(await readOnly(command)).toBe(false);
  });
});

// --- the corpus is honest: real programs really write or run with these spellings ---

function sandbox(): string {
  const dir = mkdtempSync(join(workspace, 'run-'));
  writeFileSync(join(dir, 'a'), 'hello\n');
  writeFileSync(join(dir, 'big'), `${Array.from({ length: 300 }, (_, i) => i).join('\n')}\n`);
  // Appends to MARK, then behaves as cat (a compressor, a pager) or as sh (a script shell).
  writeFileSync(join(dir, 'm.sh'), '#!/bin/sh\necho ran >> "$(dirname "$0")/MARK"\n[ "$1" = -c ] && exec /bin/sh "$@"\nexec cat\n');
  chmodSync(join(dir, 'm.sh'), 0o755);
  return dir;
}
const bash = (dir: string, command: string, env: Record<string, string> = {}): void => {
  spawnSync('bash', ['-c', command], { cwd: dir, env: { ...process.env, HOME: dir, npm_config_update_notifier: 'false', ...env }, stdio: 'ignore', timeout: 20_000 });
};
const sample = (key: string): string[] => {
  const p = abbreviations.get(key) ?? [];
  return [...new Set([p[0], p[Math.floor(p.length / 2)], p.at(-1)].filter((x): x is string => x !== undefined))];
};

interface RealRun {
  command: string;
  /** The file the command leaves behind when it wrote or ran. */
  marker: string;
  needs: string;
}

function realRuns(): RealRun[] {
  const runs: RealRun[] = [];
  for (const p of abbreviations.get('sort --output') ?? []) runs.push({ command: `sort ${p}=OUT a`, marker: 'OUT', needs: 'sort' });
  for (const p of sample('sort --compress-program')) runs.push({ command: `sort -S 1K ${p}=./m.sh big`, marker: 'MARK', needs: 'sort' });
  runs.push({ command: 'sort -ro OUT a', marker: 'OUT', needs: 'sort' }, { command: 'sort -roOUT a', marker: 'OUT', needs: 'sort' });
  runs.push({ command: "X='1 --output=OUT'; sort -k $X a", marker: 'OUT', needs: 'sort' });
  for (const p of sample('file --compile')) runs.push({ command: `printf '0 string hello hi\\n' > mg; file ${p} -m mg`, marker: 'mg.mgc', needs: 'file' });
  for (const p of sample('git grep --open-files-in-pager')) runs.push({ command: `git init -q . && git add a && git grep ${p}=./m.sh hello`, marker: 'MARK', needs: 'git' });
  runs.push({ command: 'git init -q . && git add a && git grep -nO./m.sh hello', marker: 'MARK', needs: 'git' });
  return runs;
}

describe('the generated abbreviations write and run in the real programs', () => {
  it.each(realRuns().map((r) => [r.command, r] as const))('%s', async (command, r) => {
    if (!installed(r.needs)) return;
    const dir = sandbox();
    expect(await readOnly(command)).toBe(false);
    bash(dir, command);
    expect(existsSync(join(dir, r.marker)), `${command} left no ${r.marker}`).toBe(true);
  });

  it.each(sample('grep --dereference-recursive'))('grep %s reads through a symlink out of the directory', async (p) => {
    const dir = sandbox();
    const outside = mkdtempSync(join(workspace, 'outside-'));
    writeFileSync(join(outside, 'secret'), 'TOKEN\n');
    mkdirSync(join(dir, 'sub'));
    execFileSync('ln', ['-s', outside, join(dir, 'sub', 'link')]);
    const command = `grep ${p} TOKEN sub`;
    expect(await readOnly(command)).toBe(false);
    expect(spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8' }).stdout).toContain('TOKEN');
    expect(spawnSync('bash', ['-c', 'grep -r TOKEN sub'], { cwd: dir, encoding: 'utf8' }).stdout).not.toContain('TOKEN');
  });
});

// --- npm: configuration abbreviations and environment, against npm's own list of keys ---

const npmKeys = ((): string[] => {
  if (!installed('npm')) return [];
  const r = spawnSync('npm', ['config', 'ls', '-l', '--json'], { encoding: 'utf8', cwd: workspace, env: { ...process.env, HOME: workspace } });
  return Object.keys(JSON.parse(r.stdout || '{}') as Record<string, unknown>);
})();
const NPM_RISKY = ['script-shell', 'userconfig', 'globalconfig', 'prefix', 'logs-dir', 'cache', 'node-options', 'shell', 'init-module', 'editor'];
const npmAbbreviations = NPM_RISKY.flatMap((k) => uniquePrefixes(`--${k}`, npmKeys.map((x) => `--${x}`)).map((p) => ({ key: k, p })));

describe('npm under Bash(npm test:*): every abbreviation of a key that runs or writes asks', () => {
  it('npm lists its keys', () => {
    if (!installed('npm')) return;
    expect(npmKeys).toEqual(expect.arrayContaining(NPM_RISKY));
    expect(npmAbbreviations.length).toBeGreaterThan(30);
  });

  it.each(npmAbbreviations.map(({ key, p }) => [`npm test ${p}=x (${key})`] as const))('%s', async (label) => {
    const command = label.replace(/ \(.*\)$/, '');
    const result = await decide({ command, rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask' });
    expect(result.behavior, result.reason).toBe('ask');
  });

  const project = (): string => {
    const dir = sandbox();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 't', version: '1.0.0', scripts: { test: 'node -e 1' } }));
    return dir;
  };
  const npmRuns: Array<{ command: string; marker: string; setup?: (dir: string) => void }> = [
    { command: 'npm test --script-sh=./m.sh', marker: 'MARK' },
    { command: 'Npm_config_script_shell=./m.sh npm test', marker: 'MARK' },
    { command: 'npm test --userconf=rc', marker: 'MARK', setup: (dir) => writeFileSync(join(dir, 'rc'), 'script-shell=./m.sh\n') },
    {
      command: 'npm test --prefi=X',
      marker: 'X/MARK',
      setup: (dir) => {
        mkdirSync(join(dir, 'X'));
        writeFileSync(join(dir, 'X', 'package.json'), JSON.stringify({ name: 'x', version: '1.0.0', scripts: { test: 'echo ran > MARK' } }));
      },
    },
    { command: 'NODE_V8_COVERAGE=cov npm test', marker: 'cov' },
    { command: 'npm test --logs-dir=L', marker: 'L' },
  ];
  it.each(npmRuns.map((r) => [r.command, r] as const))('%s really runs or writes, and asks', async (command, r) => {
    const result = await decide({ command, rules: { allow: ['Bash(npm test:*)'] }, expected: 'ask' });
    expect(result.behavior, result.reason).toBe('ask');
    if (!installed('npm')) return;
    const dir = project();
    r.setup?.(dir);
    bash(dir, command);
    expect(existsSync(join(dir, r.marker)) && (r.marker !== 'cov' || readdirSync(join(dir, 'cov')).length > 0), `${command} left no ${r.marker}`).toBe(true);
  });
});
