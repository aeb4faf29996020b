import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decideBash, expectAutoModeHolds, type BashCase } from '../../helpers/permission-tools.js';

// Issue 11's attack corpus: one row per form, each a way round a rule that used to work.

type Case = BashCase;

const PREFIX = { allow: ['Bash(ls:*)', 'Bash(echo:*)', 'Bash(git status:*)', 'Bash(git diff:*)', 'Bash(npm test:*)', 'Bash(cat:*)'] };
const LIFT_ALL = ['recursive-rm', 'sudo'];

const readingCorpus: Case[] = [
  // 1. cairn's reading must agree with bash's, or the command does not run on cairn's reading
  { command: "echo $'\\\\' ;touch X #'", rules: PREFIX, expected: 'deny', reason: /elsewhere/ },
  { command: "echo $'\\\\' ;touch X #'", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /elsewhere/ },
  { command: "echo x$'\\\\' ;touch X #'", rules: PREFIX, lift: LIFT_ALL, expected: 'ask' },
  { command: "x=$'\\\\' ;touch X #'", rules: PREFIX, lift: LIFT_ALL, expected: 'ask' },
  { command: "echo $'\\\\\\\\' ;touch X #'", rules: PREFIX, lift: LIFT_ALL, expected: 'ask' },
  { command: 'cat <<E\'O\'F\nhi\nEOF\ntouch X\nEOF', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /parsed/ },
  { command: 'cat <<E"O"F\nhi\nEOF\ntouch X\nEOF', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /parsed/ },
  { command: 'cat <<"E"OF\nhi\nEOF\ntouch X\nEOF', rules: PREFIX, lift: LIFT_ALL, expected: 'ask' },
  { command: 'cat <<EOF; touch X\nhi\nEOF', rules: PREFIX, lift: LIFT_ALL, expected: 'ask' },
  { command: 'echo `echo \\`touch X\\``', rules: PREFIX, expected: 'ask', reason: /touch/ },
  { command: 'echo "`echo \\"\\`touch X\\`\\"`"', rules: PREFIX, expected: 'ask', reason: /touch/ },
  { command: 'echo ${x:-`touch X`}', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /backquotes/ },
  { command: 'tou\\\nch X', rules: { deny: ['Bash(touch:*)'] }, expected: 'deny', reason: /touch/ },
  { command: 'echo a\\\nb', rules: PREFIX, expected: 'allow' },
  { command: 'ls \\\n  -la', rules: PREFIX, expected: 'allow' },
  { command: 'echo x\r;touch X', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /control characters/ },
  { command: 'coproc foo { touch X; }', rules: PREFIX, lift: LIFT_ALL, expected: 'ask' },
  { command: 'echo $((touch X) )', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /parsed/ },
  { command: 'echo "${x:-\'$(touch X)\'}"', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /inside double quotes/ },
  { command: 'echo \\ #$(touch X)', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /part of a word/ },
  { command: 'declare -i y=a[\\$\\(touch\\ X\\)]; echo', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /one word/ },
  // readings that agree stay allowed
  { command: "echo $'a\\'b' ; ls", rules: PREFIX, expected: 'allow' },
  { command: "cat <<'EOF'\n$(touch X)\nEOF", rules: PREFIX, expected: 'allow' },
  { command: 'echo "$\'x\'"', rules: PREFIX, expected: 'allow' },

  // 2. code hidden in variable values and evaluated by arithmetic, indirection or prompt expansion
  { command: "x='a[$(touch X)]'; echo $((x))", rules: PREFIX, expected: 'deny', reason: /arithmetic/ },
  { command: "x='a[$(touch X)]'; echo $((x))", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "x='a[$(touch X)]'; echo $[x]", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "x='a[$(touch X)]'; echo ${!x}", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /variable named/ },
  { command: "x='a[$(touch X)]'; echo ${a[x]}", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "x='$(touch X)'; echo ${x@P}", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /prompt/ },
  { command: "x='a[$(touch X)]'; (( x ))", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "x='a[$(touch X)]'; let y=x", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "x='a[$(touch X)]'; [[ $x -eq 1 ]]", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "x='a[$(touch X)]'; declare -i y=x", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "printf -v 'a[$(touch X)]' x", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /subscript/ },
  { command: "read 'a[$(touch X)]' <<< 1", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /subscript/ },
  { command: "unset 'a[$(touch X)]'", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /subscript/ },
  { command: 'read x < f; echo $((x + 1))', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: 'x=$(cat f); echo ${a[$x]}', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: 'echo $(( $(cat f) ))', rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /evaluated as arithmetic/ },
  { command: "bash -c 'echo $(($1))' _ 'a[$(touch X)]'", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /positional/ },
  { command: "eval \"x='a[\\$(touch X)]'\"; echo $((x))", rules: PREFIX, lift: LIFT_ALL, expected: 'ask' },
  { command: "mapfile -C 'touch X' -c 1 a < f", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /callback/ },
  { command: "alias ls='touch X'", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /alias/ },
  { command: "[[ 1 -eq '1+a[$(touch X)]' ]]", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "let 'y=a[$(touch X)]'", rules: { allow: ['Bash(let:*)'] }, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic/ },
  { command: "echo 'a[$(touch X)]' >/dev/null; echo $((_))", rules: PREFIX, lift: LIFT_ALL, expected: 'ask', reason: /arithmetic evaluates _/ },
  // values cairn can vouch for: literal numbers and variables the command does not set
  { command: 'x=3; echo $((x * 2))', rules: PREFIX, expected: 'allow' },
  { command: 'for ((i = 0; i < 3; i++)); do echo $i; done', rules: PREFIX, expected: 'allow' },
  { command: 'echo $((COLUMNS / 2)) ${#HOME}', rules: PREFIX, expected: 'allow' },
];

const envCorpus: Case[] = [
  // 3. environment and options that change what an allowed program runs
  { command: 'BASH_ENV=./x.sh git status', rules: PREFIX, expected: 'ask', reason: /BASH_ENV/ },
  { command: 'env BASH_ENV=./x.sh git status', rules: PREFIX, expected: 'ask', reason: /BASH_ENV/ },
  { command: 'env -i PATH=/tmp/evil git status', rules: PREFIX, expected: 'ask', reason: /PATH/ },
  { command: 'nice env GIT_CONFIG_PARAMETERS="\'core.pager=touch X\'" git diff', rules: PREFIX, expected: 'ask', reason: /GIT_CONFIG_PARAMETERS/ },
  { command: 'timeout 5 env HOME=/tmp/evil git diff', rules: PREFIX, expected: 'ask', reason: /HOME/ },
  { command: "PATH=/tmp/evil bash -c 'git status'", rules: PREFIX, expected: 'ask', reason: /PATH/ },
  { command: 'XDG_CONFIG_HOME=/tmp/evil git status', rules: PREFIX, expected: 'ask', reason: /XDG_CONFIG_HOME/ },
  { command: 'npm_config_script_shell=./x.sh npm test', rules: PREFIX, expected: 'ask', reason: /npm_config/ },
  { command: 'NPM_CONFIG_USERCONFIG=./x npm test', rules: PREFIX, expected: 'ask', reason: /NPM_CONFIG/ },
  { command: 'LD_PRELOAD=./x.so ls', rules: PREFIX, expected: 'ask', reason: /LD_PRELOAD/ },
  { command: 'NODE_OPTIONS="--require ./x.js" npm test', rules: PREFIX, expected: 'ask', reason: /NODE_OPTIONS/ },
  { command: 'PYTHONSTARTUP=x.py npm test', rules: PREFIX, expected: 'ask' },
  { command: 'PERL5OPT=-Mx npm test', rules: PREFIX, expected: 'ask' },
  { command: 'GIT_SSH_COMMAND="touch X" git status', rules: PREFIX, expected: 'ask' },
  { command: 'PAGER="touch X" git diff', rules: PREFIX, expected: 'ask', reason: /PAGER/ },
  { command: 'EDITOR=./x git status', rules: PREFIX, expected: 'ask' },
  { command: 'SHELLOPTS=xtrace PS4=\'$(touch X)\' npm test', rules: PREFIX, expected: 'ask' },
  { command: 'export PATH=/tmp/evil; git status', rules: PREFIX, expected: 'ask', reason: /PATH/ },
  { command: 'PATH=/tmp/evil; git status', rules: PREFIX, expected: 'ask', reason: /PATH/ },
  { command: 'git -c core.pager="touch X" diff', rules: PREFIX, expected: 'ask', reason: /git -c/ },
  { command: 'git -c core.fsmonitor="touch X" status', rules: PREFIX, expected: 'ask', reason: /git -c/ },
  { command: 'git --config-env=core.pager=EVIL diff', rules: PREFIX, expected: 'ask', reason: /config-env/ },
  { command: 'git --exec-path=/tmp/evil status', rules: PREFIX, expected: 'ask', reason: /exec-path/ },
  { command: 'git -C /tmp/other status', rules: PREFIX, expected: 'ask', reason: /-C/ },
  { command: 'git diff --ext-diff', rules: PREFIX, expected: 'ask', reason: /ext-diff/ },
  { command: 'git diff --textconv', rules: PREFIX, expected: 'ask', reason: /textconv/ },
  { command: 'npm test --script-shell ./x.sh', rules: PREFIX, expected: 'ask', reason: /script-shell/ },
  { command: 'npm test --prefix /tmp/evil', rules: PREFIX, expected: 'ask', reason: /prefix/ },
  { command: 'npm test --userconfig ./x', rules: PREFIX, expected: 'ask', reason: /userconfig/ },
  { command: 'npm test -- --prefix x', rules: PREFIX, expected: 'allow' }, // after -- the words go to the test script
  { command: 'git fetch --upload-pack="touch X" origin', rules: { allow: ['Bash(git fetch:*)'] }, expected: 'ask', reason: /upload-pack/ },
  { command: 'git push --receive-pack="touch X"', rules: { allow: ['Bash(git push:*)'] }, expected: 'ask', reason: /receive-pack/ },
  { command: 'git grep -O"touch X" foo', rules: { allow: ['Bash(git grep:*)'] }, expected: 'ask' },
  { command: "rsync -e 'sh -c \"touch X\"' a b:", rules: { allow: ['Bash(rsync:*)'] }, expected: 'ask', reason: /rsync -e/ },
  { command: "tar --to-command='touch X' -xf a.tar", rules: { allow: ['Bash(tar:*)'] }, expected: 'ask' },
  { command: "tar -I 'touch X' -cf a.tar b", rules: { allow: ['Bash(tar:*)'] }, expected: 'ask', reason: /-I/ },
  { command: "sort --compress-program='touch X' a", rules: { allow: ['Bash(sort:*)'] }, expected: 'ask', reason: /compress-program/ },
  { command: "man -P 'touch X' ls", rules: { allow: ['Bash(man:*)'] }, expected: 'ask', reason: /-P/ },
  { command: "less '+!touch X' a", rules: { allow: ['Bash(less:*)'] }, expected: 'ask' },
  { command: 'rg --pre ./x foo', rules: { allow: ['Bash(rg:*)'] }, expected: 'ask', reason: /--pre/ },
  // programs whose arguments are code (the real runs are in bash-program-code.test.ts)
  { command: "awk 'BEGIN{system(\"touch X\")}'", rules: { allow: ['Bash(awk:*)'] }, expected: 'ask', reason: /system/ },
  { command: "sed '1e touch X' f", rules: { allow: ['Bash(sed:*)'] }, expected: 'ask', reason: /sed e/ },
  { command: "sqlite3 db '.shell touch X'", rules: { allow: ['Bash(sqlite3:*)'] }, expected: 'ask', reason: /\.shell/ },
  { command: 'make -sf x.mk', rules: { allow: ['Bash(make:*)'] }, expected: 'ask', reason: /-f/ },
  // find -exec is looked through: the command it runs must be allowed on its own
  { command: 'find . -exec touch X \\;', rules: { allow: ['Bash(find:*)'] }, expected: 'ask', reason: /"touch X"/ },
  { command: 'find . -execdir sh -c "touch X" \\;', rules: { allow: ['Bash(find:*)'] }, expected: 'ask', reason: /touch X/ },
  { command: 'find . -name "*.ts" -exec grep -l foo {} +', rules: { allow: ['Bash(find:*)', 'Bash(grep:*)'] }, expected: 'allow' },
  // harmless environment still runs under a prefix rule
  { command: 'CI=1 NODE_ENV=test FORCE_COLOR=0 npm test', rules: PREFIX, expected: 'allow' },
];

let workspace: string;
beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-attacks-')));
  await mkdir(join(workspace, 'src'));
  await writeFile(join(workspace, 'README.md'), 'readme\n');
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const decide = (c: Case) => decideBash(workspace, c);

const label = (c: Case): string => `${c.mode ?? 'default'}${c.lift ? ' (built-ins lifted)' : ''}: ${JSON.stringify(c.command)}`;

describe('commands cairn reads differently from bash, and code hidden in values', () => {
  it.each(readingCorpus.map((c) => [label(c), c] as const))('%s', async (_name, c) => {
    const result = await decide(c);
    expect(result.behavior, result.reason).toBe(c.expected);
    if (c.reason) expect(result.reason).toMatch(c.reason);
  });
});

describe('environment and options that change what an allowed program runs', () => {
  it.each(envCorpus.map((c) => [label(c), c] as const))('%s', async (_name, c) => {
    const result = await decide(c);
    expect(result.behavior, result.reason).toBe(c.expected);
    if (c.reason) expect(result.reason).toMatch(c.reason);
  });
});

describe('auto mode, with a classifier that approves everything: denies, protected paths and what cairn cannot read still hold', () => {
  it.each([...readingCorpus, ...envCorpus].map((c) => [label(c), c] as const))('%s', async (_name, c) => {
    await expectAutoModeHolds(workspace, c);
  });
});
