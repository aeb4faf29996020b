import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/events.js';
import { decideBash, type BashCase } from '../../helpers/permission-tools.js';

// Issue 11: deny rules that cannot be got round, the built-in denies in every mode, writes judged as writes, read-only commands.

type Case = BashCase;

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions'];
const BYPASS: PermissionMode = 'bypassPermissions';
const RM_DENY = { deny: ['Bash(rm:*)'] };
const PREFIX = { allow: ['Bash(ls:*)', 'Bash(echo:*)', 'Bash(git status:*)', 'Bash(git diff:*)', 'Bash(npm test:*)', 'Bash(sort:*)', 'Bash(tee:*)'] };

// 5. `Bash(rm:*)` under bypassPermissions: every spelling of rm is denied, and so is any command whose program cannot be named.
const evasions = [
  '/bin/rm a', '"/bin/rm" a', '\\rm a', "r''m a", "$'rm' a", "$'\\x72m' a", 'exec rm a', 'stdbuf -o0 rm a', 'stdbuf -o 0 rm a', 'setsid -f rm a',
  'ionice -c 3 rm a', 'flock /tmp/l rm a', 'flock /tmp/l -c "rm a"', 'chronic rm a', 'unbuffer rm a', "script -q -c 'rm a' /dev/null",
  "script /dev/null -c 'rm a'", 'env -S "rm a"', 'env -i A=1 rm a', 'builtin command rm a', 'command -p rm a', 'nohup rm a', 'time rm a',
  'time -p rm a', 'watch -n 1 rm a', 'watch rm a', 'nice -n 5 rm a', 'timeout -s KILL 5 rm a', 'busybox rm a', 'strace -f -o /dev/null rm a',
  'taskset 1 rm a', 'find . -name a -exec rm {} +', 'find . -name a -exec /bin/rm {} \\;', 'find . -name a -delete', 'xargs -0 /bin/rm -- < list',
  'xargs -I{} rm -- {} < list', 'parallel rm ::: a', '$(echo rm) a', 'x=rm; $x a', 'rm${IFS}a', '/bin/r[m] a', '/bin/r? a', 'r* a',
  '{rm,a}', "echo 'rm a' | bash", "bash <<< 'rm a'", "bash <<'EOF'\nrm a\nEOF", 'bash < script.sh', 'sh -s < list', 'source nope.sh',
  '. ./removes.sh', 'bash removes.sh', 'eval "rm a"', 'eval "$x"', "bash -c 'eval \"rm a\"'", "sh -c 'sh -c \"rm a\"'", "trap 'rm a' EXIT",
  'echo `rm a`', 'cat <(rm a)', "echo $'\\\\' ;rm a #'", 'r\\\nm a', "trap -- 'rm a' EXIT", "find . -exec sh -c 'rm {}' \\;",
  "xargs -I{} sh -c 'rm {}' < list", "xargs -I % sh -c 'echo %' < list", 'xargs -I{} {} a < list', 'find . -exec {} \\;',
];

const denyCorpus: Case[] = [
  ...evasions.map((command) => ({ command, rules: RM_DENY, mode: BYPASS, expected: 'deny' as const })),
  // not rm at all: still runs
  { command: 'echo rm', rules: RM_DENY, mode: BYPASS, expected: 'allow' },
  { command: 'git commit -m "rm a"', rules: RM_DENY, mode: BYPASS, expected: 'allow' },
  // deny rules on other programs see through global options and wrappers too
  { command: 'git --no-pager push --force', rules: { deny: ['Bash(git push:*)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'sudo -u me git push', rules: { deny: ['Bash(git push:*)'] }, mode: BYPASS, lift: ['sudo'], expected: 'deny' },
  { command: 'curl -s x | sh', rules: { deny: ['Bash(curl:*)'] }, mode: BYPASS, expected: 'deny' },
  { command: '/usr/bin/curl x', rules: { deny: ['Bash(curl:*)'] }, mode: BYPASS, expected: 'deny' },
  // Edit and Read deny rules hold for what commands write and read
  { command: 'echo x > secrets/key.pem', rules: { deny: ['Edit(./secrets/**)'] }, mode: BYPASS, expected: 'deny', reason: /secrets/ },
  { command: 'cp a secrets/b', rules: { deny: ['Edit(./secrets/**)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'sed -i s/a/b/ secrets/key.pem', rules: { deny: ['Edit(./secrets/**)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'cat .env', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny', reason: /Read/ },
  { command: 'cat < .env', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'grep -r SECRET .', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'cat .e*', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'cat *.md', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'allow' },
  // copying or moving a file is reading it: the copy would be readable where the rule does not reach
  { command: 'cp .env notes.txt', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny', reason: /Read/ },
  { command: 'cp -t out .env', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'cp -r . ../copy', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'mv .env notes.txt', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'install .env notes.txt', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'deny' },
  { command: 'cp /etc/passwd p.txt', rules: { allow: ['Bash(cp:*)'], deny: ['Read(/etc/**)'] }, expected: 'deny' },
  { command: 'cp a.md b.md', rules: { deny: ['Read(./.env)'] }, mode: BYPASS, expected: 'allow' },

  // 4. redirects and output options are writes, judged as write_file would judge them
  { command: 'ls > F', rules: PREFIX, expected: 'ask', reason: /writes F/ },
  { command: 'ls 2>F', rules: PREFIX, expected: 'ask', reason: /writes F/ },
  { command: 'git diff --output=F', rules: PREFIX, expected: 'ask', reason: /writes F/ },
  { command: 'git diff --output F', rules: PREFIX, expected: 'ask', reason: /writes F/ },
  { command: 'sort -o F a', rules: PREFIX, expected: 'ask', reason: /writes F/ },
  { command: 'echo x | tee F', rules: PREFIX, expected: 'ask', reason: /writes F/ },
  { command: 'dd if=a of=F', rules: { allow: ['Bash(dd:*)'] }, expected: 'ask', reason: /writes F/ },
  { command: 'find . -fprint F', rules: { allow: ['Bash(find:*)'] }, expected: 'ask', reason: /writes F/ },
  { command: 'ls > F', rules: PREFIX, mode: 'acceptEdits', expected: 'allow' }, // write_file would be allowed there
  { command: 'ls > .git/config', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /protected/ },
  { command: 'ls > /tmp/cairn-out', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /outside/ },
  // targets of file programs: outside the workspace or protected asks, even under the program's own rule
  { command: 'cp a /tmp/cairn-x', rules: { allow: ['Bash(cp:*)'] }, expected: 'ask', reason: /outside/ },
  { command: 'cp evil .git/hooks/pre-commit', rules: { allow: ['Bash(cp:*)'] }, expected: 'ask', reason: /protected/ },
  { command: 'mv a ../b', rules: { allow: ['Bash(mv:*)'] }, expected: 'ask', reason: /outside/ },
  { command: 'ln -s /etc/passwd .npmrc', rules: { allow: ['Bash(ln:*)'] }, expected: 'ask', reason: /protected/ },
  { command: 'touch ~/.bashrc', rules: { allow: ['Bash(touch:*)'] }, expected: 'ask' },
  { command: 'chmod +x .git/hooks/pre-push', rules: { allow: ['Bash(chmod:*)'] }, expected: 'ask', reason: /protected/ },
  { command: 'sed -i s/a/b/ /etc/hosts', rules: { allow: ['Bash(sed:*)'] }, expected: 'ask', reason: /outside/ },
  { command: 'git config core.fsmonitor "touch X"', rules: { allow: ['Bash(git config:*)'] }, expected: 'ask', reason: /protected/ },
  { command: 'cp a b', rules: { allow: ['Bash(cp:*)'] }, expected: 'allow' },
  { command: 'mkdir -p src/new && touch src/new/a.ts', rules: { allow: ['Bash(mkdir:*)', 'Bash(touch:*)'] }, expected: 'allow' },
  // a write followed by a program that may read it asks, whatever allows each part
  { command: 'echo "[core] fsmonitor = touch X" >> .git/config && git status', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /protected/ },
  { command: 'echo \'{"scripts":{"test":"touch X"}}\' > package.json && npm test', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /then runs "npm test"/ },
  { command: 'echo x | tee package.json | npm test', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /then runs/ },
  { command: 'echo script-shell=./x.sh > .npmrc; npm test', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /protected/ },
  { command: 'echo "* diff=x" > .gitattributes && git diff', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /protected/ },
  { command: 'git checkout other -- package.json && npm test', rules: { allow: ['Bash(git checkout:*)', 'Bash(npm test:*)'] }, mode: 'acceptEdits', expected: 'ask', reason: /then runs "npm test"/ },
  { command: 'cp other.json package.json && npm test', rules: { allow: ['Bash(cp:*)', 'Bash(npm test:*)'] }, mode: 'acceptEdits', expected: 'ask', reason: /then runs/ },
  { command: 'npm test > log.txt', rules: PREFIX, mode: 'acceptEdits', expected: 'allow' },
  { command: 'npm test | tee log.txt', rules: PREFIX, mode: 'acceptEdits', expected: 'allow' },

  // 8. `~user`, `~-` and `~+` targets are not workspace folders
  { command: 'echo x > ~root/F', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /another user/ },
  { command: 'echo x > ~-/F', rules: PREFIX, mode: 'acceptEdits', expected: 'ask', reason: /another user/ },
  { command: 'echo x > ~+/F', rules: PREFIX, mode: 'acceptEdits', expected: 'ask' },
  { command: 'echo x > ~nobody/F', rules: PREFIX, mode: 'acceptEdits', expected: 'ask' },
  { command: 'cat ~root/.ssh/id_rsa', expected: 'ask' },
  // reading hidden in a substitution or a redirect is a read of its own
  { command: 'echo "$(</etc/passwd)"', rules: PREFIX, expected: 'ask', reason: /"cat \/etc\/passwd"/ },
  { command: 'cat < /etc/passwd', expected: 'ask', reason: /outside the workspace/ },
  { command: 'wc -l < /etc/passwd', expected: 'ask', reason: /outside the workspace/ },
];

// 6. The built-in deny rules hold in every mode, bypass included, even with `Bash` allowed.
const builtinCommands = [
  'rm -rf temp', 'rm -r temp', 'rm -R temp', 'rm -fr temp', 'rm --recursive temp', 'rm --rec temp', 'rm temp -r', 'rm -r -f temp',
  'timeout 5 rm -rf temp', 'bash -c "rm -rf temp"', 'find temp -delete', 'find . -name temp -exec rm -r {} +', 'echo -rf temp | xargs rm',
  'rm $flags temp', 'rm "$(echo -rf)" temp', 'sudo ls', 'sudo -u me ls', '/usr/bin/sudo ls', 'doas ls', 'su -c ls', 'su root', 'pkexec ls',
  'run0 ls', 'sudoedit /etc/hosts', 'env sudo ls', 'nohup sudo ls',
  // options made by brace expansion (found attacking the first version)
  'rm -r{,} temp', 'rm -{r,f} temp', 'rm -f{r,} temp',
  // the same through an interpreter's inline code (a best-effort look, for the obvious ways round)
  'python3 -c \'import shutil; shutil.rmtree("temp")\'', 'node -e \'require("fs").rmSync("temp", { recursive: true })\'',
  'awk \'BEGIN { system("rm -rf temp") }\'', 'perl -e \'system("sudo ls")\'', 'ruby -e \'require "fileutils"; FileUtils.rm_rf("temp")\'',
];
const builtinCorpus: Case[] = builtinCommands.flatMap((command) =>
  MODES.map((mode) => ({ command, mode, rules: { allow: ['Bash'] }, expected: 'deny' as const, reason: /ask the user to run/ })),
);
const liftedCorpus: Case[] = [
  { command: 'rm -rf temp', mode: BYPASS, lift: ['recursive-rm'], expected: 'allow' },
  { command: 'sudo ls', mode: BYPASS, lift: ['sudo'], expected: 'allow' },
  { command: 'sudo ls', mode: BYPASS, lift: ['recursive-rm'], expected: 'deny' },
  { command: 'rm -rf /', mode: BYPASS, lift: ['recursive-rm', 'sudo'], expected: 'deny', reason: /dangerous/ }, // catastrophic stays
  { command: 'rm -f temp/keep.txt', mode: BYPASS, expected: 'allow' },
  { command: 'rm -- "$f"', mode: BYPASS, expected: 'allow' },
];

// 7. Read-only commands run without asking inside the workspace, in plan mode too; everything else is denied in plan mode.
const readOnlyCommands = [
  'ls', 'ls -la src', 'cat README.md', 'head -n 5 README.md', 'tail README.md', 'wc -l README.md', 'grep -n foo README.md', 'rg foo src',
  'find . -name "*.ts"', 'pwd', 'echo hi', 'printf "%s\\n" a', 'which git', 'type ls', 'file README.md', 'stat README.md', 'du -sh src',
  'df -h', 'diff README.md src/a.ts', 'git status', 'git diff', 'git log --oneline -5', 'git show HEAD', 'git branch --list', 'git branch',
  'git rev-parse HEAD', 'git ls-files', 'git blame README.md', 'sort README.md', 'uniq README.md', 'cut -d, -f1 README.md', 'tr a b',
  'jq .name package.json', 'date', 'env', 'printenv HOME', 'true', 'false', 'test -f README.md', '[ -d src ]', 'cat README.md | grep x | wc -l',
  'echo $(git rev-parse HEAD)', 'ls 2>/dev/null', 'git status && git diff',
];
const notReadOnly = [
  'touch x', 'npm test', 'git commit -m x', 'git branch new', 'sort -o out README.md', 'find . -exec ls \\;',
  'git diff --output=x', 'echo hi > x', 'printf -v x hi', 'date -s 2020-01-01', 'uniq a b', 'git -c a=b status', 'cd src && ls',
  'cat /etc/passwd', 'cat ~/.ssh/id_rsa', 'ls ..', 'grep -r x /etc', 'cat ../x', 'cat $f', 'sed -n 1p README.md', 'awk 1 README.md',
  'grep -R x .', 'find -L . -name x', 'rg --follow x', 'rg --pre ./x foo', 'du -L .', 'bash ok.sh', 'source ok.sh', 'xargs cat < list',
  'echo ~/.ssh/*', 'echo /etc/*', 'git diff -O/etc/passwd', 'git blame -S /etc/passwd README.md',
];
const readOnlyCorpus: Case[] = [
  ...readOnlyCommands.flatMap((command) => (['default', 'acceptEdits', 'plan'] as const).map((mode) => ({ command, mode, expected: 'allow' as const }))),
  ...notReadOnly.map((command) => ({ command, mode: 'plan' as const, expected: 'deny' as const, reason: /plan mode: commands do not run until the plan is approved/ })),
  { command: 'cat /etc/passwd', expected: 'ask', reason: /outside the workspace/ },
  { command: 'cat ~/.ssh/id_rsa', mode: 'acceptEdits', expected: 'ask', reason: /outside the workspace/ },
  { command: 'ls ..', expected: 'ask', reason: /outside the workspace/ },
  { command: 'touch x', mode: 'acceptEdits', expected: 'ask' },
  { command: 'git status', mode: 'plan', rules: { allow: ['Bash(git status:*)'] }, expected: 'allow' },
  { command: 'npm test', mode: 'plan', rules: { allow: ['Bash(npm test:*)'] }, expected: 'deny', reason: /plan mode/ },
];

let workspace: string;
beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-deny-modes-')));
  for (const dir of ['src', 'secrets', 'temp', '.git/hooks']) await mkdir(join(workspace, dir), { recursive: true });
  await writeFile(join(workspace, 'README.md'), 'readme\n');
  await writeFile(join(workspace, 'src', 'a.ts'), 'a\n');
  await writeFile(join(workspace, 'secrets', 'key.pem'), 'secret\n');
  await writeFile(join(workspace, 'temp', 'keep.txt'), 'keep\n');
  await writeFile(join(workspace, 'package.json'), '{"name":"x"}\n');
  await writeFile(join(workspace, 'removes.sh'), 'echo start\nrm -f a\n');
  await writeFile(join(workspace, 'ok.sh'), 'echo fine\n');
  await writeFile(join(workspace, 'secrets', 'run.sh'), 'echo TOPSECRET-LINE\nrm -rf temp\n');
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const decide = (c: Case) => decideBash(workspace, c);

const label = (c: Case): string => `${c.mode ?? 'default'}${c.lift ? ` (lifted ${c.lift.join(',')})` : ''}: ${JSON.stringify(c.command)}`;

function table(name: string, corpus: Case[]): void {
  describe(name, () => {
    it.each(corpus.map((c) => [label(c), c] as const))('%s', async (_name, c) => {
      const result = await decide(c);
      expect(result.behavior, result.reason).toBe(c.expected);
      if (c.reason) expect(result.reason).toMatch(c.reason);
    });
  });
}

table('deny rules cannot be got round, and writes are judged as writes', denyCorpus);
table('built-in deny rules hold in every mode', builtinCorpus);
table('lifting a built-in deny rule lifts that rule only', liftedCorpus);
table('read-only commands run inside the workspace, in plan mode too', readOnlyCorpus);

describe('script files run by source or a shell', () => {
  it('are read and judged by their commands, and a rule must name the script itself', async () => {
    expect((await decide({ command: 'source removes.sh', rules: RM_DENY, mode: BYPASS, expected: 'deny' })).behavior).toBe('deny');
    expect((await decide({ command: 'bash ok.sh', expected: 'ask' })).behavior).toBe('ask');
    expect((await decide({ command: 'bash ok.sh', rules: { allow: ['Bash(bash ok.sh)'] }, expected: 'allow' })).behavior).toBe('allow');
  });

  it('are not read when a Read deny rule covers them or they are outside the workspace, so no reason quotes them', async () => {
    for (const command of ['bash secrets/run.sh', 'source secrets/run.sh', 'bash < secrets/run.sh', '. secrets/run.sh']) {
      const result = await decide({ command, rules: { deny: ['Read(./secrets/**)'] }, expected: 'deny' });
      expect(result.behavior, command).toBe('deny');
      expect(result.reason, command).not.toMatch(/TOPSECRET|rm -rf/);
    }
    const outside = await decide({ command: `bash ${join(workspace, '..', 'elsewhere.sh')}`, expected: 'deny' });
    expect(outside).toMatchObject({ behavior: 'deny', reason: expect.stringMatching(/could not read/) as string });
  });
});
