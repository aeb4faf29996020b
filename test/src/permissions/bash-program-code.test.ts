import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeBash } from '../../../src/permissions/bash/analysis.js';
import { decideBash } from '../../helpers/permission-tools.js';

// Issue 29 item 4b: an allow rule for a program does not cover the forms of it that run arbitrary code.
// Each form is asked under the rule, and each is run in real bash (where the program is installed) to show
// that it really does what the row says: runs `touch MARK`, writes MARK, rewrites a file, imports one.

interface Case {
  rule: string;
  command: string;
  /** Files to create first, by path relative to the case's directory. */
  files?: Record<string, string>;
  /** Shell commands to run first (git init...). */
  setup?: string;
  /** What shows the form did more than the rule's prefix suggests; MARK exists by default. */
  effect?: (dir: string) => boolean;
  /** Programs the real run needs. */
  needs: string[];
}

const installed = (program: string): boolean => spawnSync('bash', ['-c', `command -v ${program}`]).status === 0;
const HAVE = new Map(['awk', 'mawk', 'gawk', 'sed', 'vim', 'ex', 'view', 'sqlite3', 'git', 'make', 'gcc', 'xargs'].map((p) => [p, installed(p)] as const));
const marked = (dir: string): boolean => existsSync(join(dir, 'MARK'));
const SYSTEM_AWK = 'BEGIN { system("touch MARK") }';
const MAKEFILE = 'all:\n\t@echo workspace\n';
const EVIL_MK = 'all:\n\ttouch MARK\n';

const AWK = 'Bash(awk:*)';
const SED = 'Bash(sed:*)';
const SQLITE = 'Bash(sqlite3:*)';
const GIT = 'Bash(git:*)';
const MAKE = 'Bash(make:*)';

const cases: Case[] = [
  // awk: system(), pipes both ways, print to a file, program files
  { rule: AWK, command: `awk '${SYSTEM_AWK}'`, needs: ['awk'] },
  { rule: AWK, command: `awk -- '${SYSTEM_AWK}'`, needs: ['awk'] },
  { rule: AWK, command: `awk -F: '${SYSTEM_AWK}'`, needs: ['awk'] },
  { rule: AWK, command: `awk 'BEGIN { "touch MARK" | getline }'`, needs: ['awk'] },
  { rule: AWK, command: `awk 'BEGIN { print "touch MARK" | "sh" }'`, needs: ['awk'] },
  { rule: AWK, command: `awk 'BEGIN { print "x" > "MARK" }'`, needs: ['awk'] },
  { rule: AWK, command: `awk 'BEGIN { printf "x" >> "MARK" }'`, needs: ['awk'] },
  { rule: AWK, command: 'awk -f prog.awk', files: { 'prog.awk': SYSTEM_AWK }, needs: ['awk'] },
  { rule: AWK, command: 'awk -fprog.awk', files: { 'prog.awk': SYSTEM_AWK }, needs: ['awk'] },
  { rule: 'Bash(mawk:*)', command: `mawk '${SYSTEM_AWK}'`, needs: ['mawk'] },
  { rule: 'Bash(gawk:*)', command: `gawk -e '${SYSTEM_AWK}'`, needs: ['gawk'] },
  { rule: 'Bash(gawk:*)', command: `gawk --source='${SYSTEM_AWK}'`, needs: ['gawk'] },
  { rule: AWK, command: `printf '%s' '${SYSTEM_AWK}' | xargs -0 awk`, needs: ['awk', 'xargs'] },
  // sed: e, s///e, w, s///w, -i, script files, options anywhere and in any spelling
  { rule: SED, command: "sed 'e touch MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed '1e touch MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed 's/.*/touch MARK/e' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed -n 'w MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed 's/a/b/w MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed -n -e '/a/{p;1e touch MARK' -e '}' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed 's/[/]/x/;1e touch MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed -E 's/a|b/c/;1e touch MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed -ne '1e touch MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed --expression='1e touch MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed --expr '1e touch MARK' f", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: "sed -n p f -e '1e touch MARK'", files: { f: 'a\n' }, needs: ['sed'] },
  { rule: SED, command: 'sed -f s.sed f', files: { f: 'a\n', 's.sed': '1e touch MARK\n' }, needs: ['sed'] },
  // A file named like an option, matched by a glob, becomes one.
  { rule: SED, command: 'sed -n p *', files: { f: 'a\n', '-e1e touch MARK': '' }, needs: ['sed'] },
  ...['sed -i s/a/b/ f', 'sed -ie s/a/b/ f', 'sed s/a/b/ f -i', 'sed --in-place s/a/b/ f', 'sed --in-pl s/a/b/ f', 'sed -ni s/a/b/p f'].map(
    (command): Case => ({ rule: SED, command, files: { f: 'a\n' }, effect: (dir) => !/^a\n$/.test(readFileSync(join(dir, 'f'), 'utf8')) || existsSync(join(dir, 'fe')), needs: ['sed'] }),
  ),
  // the vi family: -c and + commands, -S scripts
  { rule: 'Bash(vim:*)', command: "vim -c '!touch MARK' -c 'qa!'", needs: ['vim'] },
  { rule: 'Bash(vim:*)', command: "vim '+!touch MARK' '+qa!'", needs: ['vim'] },
  { rule: 'Bash(vim:*)', command: 'vim -S x.vim', files: { 'x.vim': '!touch MARK\nqa!\n' }, needs: ['vim'] },
  { rule: 'Bash(ex:*)', command: "ex -c '!touch MARK' -c 'qa!'", needs: ['ex'] },
  { rule: 'Bash(view:*)', command: "view -c '!touch MARK' -c 'qa!'", needs: ['view'] },
  // sqlite3: dot-commands as arguments, in -cmd, in a script, on stdin; the shell's own SQL functions
  { rule: SQLITE, command: "sqlite3 db '.shell touch MARK'", needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 db '.system touch MARK'", needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 db '.output MARK' 'select 1'", needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 db '.once MARK' 'select 1'", needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 db \"select writefile('MARK', 'x')\"", needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 -cmd '.shell touch MARK' db 'select 1'", needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 db '.read x.sql'", files: { 'x.sql': '.shell touch MARK\n' }, needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 -init x.sql db 'select 1'", files: { 'x.sql': '.shell touch MARK\n' }, needs: ['sqlite3'] },
  { rule: SQLITE, command: 'sqlite3 db < x.sql', files: { 'x.sql': '.shell touch MARK\n' }, needs: ['sqlite3'] },
  { rule: SQLITE, command: "printf '.shell touch MARK' | sqlite3 db", needs: ['sqlite3'] },
  { rule: SQLITE, command: "sqlite3 db '.load ./evil'", setup: 'gcc -shared -fPIC -o evil.so evil.c', files: { 'evil.c': '#include <stdlib.h>\n__attribute__((constructor)) static void f(void) { system("touch MARK"); }\n' }, needs: ['sqlite3', 'gcc'] },
  {
    rule: SQLITE,
    command: "sqlite3 db '.import --csv data.csv t'",
    files: { 'data.csv': 'a,b\n1,2\n' },
    effect: (dir) => spawnSync('sqlite3', [join(dir, 'db'), 'select count(*) from t'], { encoding: 'utf8' }).stdout.trim() === '1',
    needs: ['sqlite3'],
  },
  // git: configuration on the command line runs programs
  { rule: GIT, command: "git -c alias.x='!touch MARK' x", setup: 'git init -q', needs: ['git'] },
  { rule: GIT, command: "git -c core.fsmonitor='touch MARK; false' status", setup: 'git init -q', needs: ['git'] },
  { rule: GIT, command: "git -c core.sshCommand='touch MARK; false' ls-remote ssh://host/repo", setup: 'git init -q', needs: ['git'] },
  { rule: GIT, command: "EVIL='!touch MARK' git --config-env=alias.x=EVIL x", setup: 'git init -q', needs: ['git'] },
  { rule: GIT, command: 'git --exec-path=./bin x', setup: 'git init -q && chmod +x bin/git-x', files: { 'bin/git-x': '#!/bin/sh\ntouch MARK\n' }, needs: ['git'] },
  // make: another makefile, recipes of its own, programs of its own
  { rule: MAKE, command: 'make -f evil.mk', files: { Makefile: MAKEFILE, 'evil.mk': EVIL_MK }, needs: ['make'] },
  { rule: MAKE, command: 'make -fevil.mk', files: { Makefile: MAKEFILE, 'evil.mk': EVIL_MK }, needs: ['make'] },
  { rule: MAKE, command: 'make -sf evil.mk', files: { Makefile: MAKEFILE, 'evil.mk': EVIL_MK }, needs: ['make'] },
  { rule: MAKE, command: 'make --file=evil.mk', files: { Makefile: MAKEFILE, 'evil.mk': EVIL_MK }, needs: ['make'] },
  { rule: MAKE, command: 'make --fil=evil.mk', files: { Makefile: MAKEFILE, 'evil.mk': EVIL_MK }, needs: ['make'] },
  { rule: MAKE, command: "make --eval='$(shell touch MARK)'", files: { Makefile: MAKEFILE }, needs: ['make'] },
  { rule: MAKE, command: "make -E '$(shell touch MARK)'", files: { Makefile: MAKEFILE }, needs: ['make'] },
  { rule: MAKE, command: 'make -C sub', files: { Makefile: MAKEFILE, 'sub/Makefile': 'all:\n\ttouch ../MARK\n' }, needs: ['make'] },
  { rule: MAKE, command: "make 'X!=touch MARK'", files: { Makefile: MAKEFILE }, needs: ['make'] },
  { rule: MAKE, command: "make CC='touch MARK; true'", files: { Makefile: 'all:\n\t$(CC) -v\n' }, needs: ['make'] },
  { rule: MAKE, command: 'make MAKEFILES=evil.mk', files: { Makefile: MAKEFILE, 'evil.mk': '$(shell touch MARK)\n' }, needs: ['make'] },
  { rule: MAKE, command: "printf -- '-fevil.mk' | xargs make", files: { Makefile: MAKEFILE, 'evil.mk': EVIL_MK }, needs: ['make', 'xargs'] },
];

// Forms the rule is meant for: no risk, so the prefix rule still covers them.
const covered: Array<{ command: string; program: string; files?: Record<string, string>; setup?: string }> = [
  { command: "awk '{ print $1 }' f", program: 'awk' },
  { command: "awk -F: 'NR > 1 { print $1 }' f", program: 'awk' },
  { command: "awk '$2 > 3' f", program: 'awk' },
  { command: "sed -n 's/a/b/p' f", program: 'sed' },
  { command: "sed '/x/d; s|a|b|g' f", program: 'sed' },
  { command: "sed -n '1,5{p;}' f", program: 'sed' },
  { command: "sed --sandbox '1e touch MARK' f", program: 'sed', files: { f: 'a\n' } }, // sed refuses e in its sandbox: nothing runs
  { command: "sqlite3 db 'select 1'", program: 'sqlite3' },
  { command: 'sqlite3 -header db .tables', program: 'sqlite3' },
  { command: 'make', program: 'make', files: { Makefile: MAKEFILE } },
  { command: 'make test', program: 'make' },
  { command: 'make -j4 V=1 all', program: 'make', files: { Makefile: MAKEFILE } },
  { command: 'git status', program: 'git', setup: 'git init -q' },
  { command: 'git log --oneline -5', program: 'git' },
];

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'cairn-program-code-')));
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

let count = 0;
function caseDir(files: Record<string, string> = {}, setup?: string): string {
  const dir = join(root, `case-${++count}`);
  mkdirSync(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  if (setup) expect(spawnSync('bash', ['-c', setup], { cwd: dir, env: { PATH: process.env['PATH'] ?? '', HOME: dir } }).status).toBe(0);
  return dir;
}

function runInBash(dir: string, command: string): void {
  // SHELL as a login sets it: make runs `X!=cmd` with it.
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, SHELL: '/bin/sh', LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' };
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', command], { cwd: dir, env, input: '', timeout: 20_000 });
  if (run.error) throw run.error;
}

describe('forms of an allowed program that run code the rule does not name', () => {
  it('has a row for each program the issue names', () => {
    for (const rule of [AWK, SED, SQLITE, GIT, MAKE, 'Bash(vim:*)']) expect(cases.filter((c) => c.rule === rule).length).toBeGreaterThanOrEqual(3);
  });

  it.each(cases.map((c) => [`${c.rule} ${JSON.stringify(c.command)}`, c] as const))('%s asks', async (_name, c) => {
    const dir = caseDir(c.files, c.needs.every((p) => HAVE.get(p)) ? c.setup : undefined);
    const result = await decideBash(dir, { command: c.command, rules: { allow: [c.rule] }, expected: 'ask' });
    expect(result.behavior, result.reason).toBe('ask');
    expect(result.reason).toMatch(/needs approval each time/);
  });

  it.each(cases.filter((c) => c.needs.every((p) => HAVE.get(p))).map((c) => [JSON.stringify(c.command), c] as const))('in real bash, %s does it', (_name, c) => {
    const dir = caseDir(c.files, c.setup);
    runInBash(dir, c.command);
    expect((c.effect ?? marked)(dir)).toBe(true);
  });

  it.each(covered.map((c) => [c.command, c] as const))('%s is still covered by the prefix rule (no risk)', async (_name, c) => {
    const detail = await analyzeBash(c.command);
    const part = detail.parts.find((p) => p.program === c.program);
    expect(part?.risk).toBeUndefined();
    if (c.files && HAVE.get(c.program)) {
      const dir = caseDir(c.files, c.setup);
      runInBash(dir, c.command);
      expect(marked(dir)).toBe(false);
    }
  });
});
