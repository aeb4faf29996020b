import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import type { PermissionRuleSet } from '../../../src/permissions/types.js';
import { expectAutoModeHolds, fakeBashTool } from '../../helpers/permission-tools.js';

const bash = fakeBashTool;

type Expected = 'allow' | 'ask' | 'deny';
interface Case {
  command: string;
  rules?: Partial<PermissionRuleSet>;
  expected: Expected;
  /** A fragment the reason must contain. */
  reason?: RegExp;
  /** Built-in deny rules lifted by a setting. */
  lift?: string[];
}

const allow = (...rules: string[]): Partial<PermissionRuleSet> => ({ allow: rules });
const ALL = allow('Bash'); // even "allow every bash use" must not let these through
const LIFT_ALL = ['recursive-rm', 'sudo'];

const corpus: Case[] = [
  // --- dangerous: denied outright, whatever the rules
  { command: 'sudo ls', rules: ALL, expected: 'deny', reason: /sudo/ },
  { command: 'sudo -u root rm x', expected: 'deny', reason: /sudo/ },
  { command: '/usr/bin/sudo id', rules: ALL, expected: 'deny' },
  { command: 'ls && sudo reboot', rules: allow('Bash(ls:*)'), expected: 'deny' },
  { command: 'echo $(sudo cat /etc/shadow)', rules: ALL, expected: 'deny' },
  { command: 'timeout 5 sudo id', rules: ALL, expected: 'deny' },
  { command: "bash -c 'sudo id'", rules: ALL, expected: 'deny' },
  { command: 'rm -rf /', rules: ALL, expected: 'deny', reason: /recursive rm/ },
  { command: 'rm -fr /', rules: ALL, expected: 'deny' },
  { command: 'rm -r -f /', rules: ALL, expected: 'deny' },
  { command: 'rm --recursive --force /', rules: ALL, expected: 'deny' },
  { command: 'rm -Rf --no-preserve-root /', rules: ALL, expected: 'deny' },
  { command: 'rm -rf ~', rules: ALL, expected: 'deny' },
  { command: 'rm -rf ~/', rules: ALL, expected: 'deny' },
  { command: 'rm -rf .', rules: ALL, expected: 'deny' },
  { command: 'rm -rf ./', rules: ALL, expected: 'deny' },
  { command: 'rm -rf ..', rules: ALL, expected: 'deny' },
  { command: 'rm -rf *', rules: ALL, expected: 'deny' },
  { command: 'rm -rf /*', rules: ALL, expected: 'deny' },
  { command: 'rm -rf $HOME', rules: ALL, expected: 'deny' },
  { command: 'rm -rf "$HOME"', rules: ALL, expected: 'deny' },
  { command: 'rm -rf ${HOME}/', rules: ALL, expected: 'deny' },
  { command: 'rm -rf -- /', rules: ALL, expected: 'deny' },
  { command: 'cd src && rm -rf .', rules: ALL, expected: 'deny' },
  { command: 'mkfs.ext4 /dev/sdb1', rules: ALL, expected: 'deny', reason: /mkfs/ },
  { command: 'mkfs -t ext4 /dev/sdb', rules: ALL, expected: 'deny' },
  { command: 'dd if=/dev/zero of=/dev/sda bs=1M', rules: ALL, expected: 'deny', reason: /\/dev\/sda/ },
  { command: 'echo hi > /dev/sda', rules: ALL, expected: 'deny', reason: /block device/ },
  { command: 'cat img > /dev/nvme0n1', rules: ALL, expected: 'deny' },
  { command: ':(){ :|:& };:', rules: ALL, expected: 'deny', reason: /fork bomb/ },
  { command: 'bomb(){ bomb|bomb& }; bomb', rules: ALL, expected: 'deny', reason: /fork bomb/ },
  // --- not catastrophic, but recursive: the built-in rule denies it whatever the rules (issue 11: it used to run under Bash(rm:*))
  { command: 'rm -rf build', rules: allow('Bash(rm:*)'), expected: 'deny', reason: /built-in.*ask the user/ },
  { command: 'rm -rf build', expected: 'deny', reason: /built-in/ },
  { command: 'rm -rf build', rules: allow('Bash(rm:*)'), lift: ['recursive-rm'], expected: 'allow' },
  { command: 'rm -f build', rules: allow('Bash(rm:*)'), expected: 'allow' },
  // rm's target is a change: outside the workspace it asks even under Bash(rm:*) (issue 11: it used to be allowed)
  { command: 'rm -f /', rules: allow('Bash(rm:*)'), expected: 'ask', reason: /outside the workspace/ },
  { command: 'dd if=/dev/zero of=/dev/null count=1', rules: allow('Bash(dd:*)'), expected: 'allow' },
  { command: 'echo hi > /dev/null', rules: allow('Bash(echo:*)'), expected: 'allow' },
  { command: 'npm test 2>/dev/null', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  { command: 'npm test 2>&1', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  // --- prefix and wildcard rules on simple commands
  { command: 'git status', rules: allow('Bash(git status:*)'), expected: 'allow' },
  { command: 'git status --short', rules: allow('Bash(git status:*)'), expected: 'allow' },
  { command: 'git push', rules: allow('Bash(git status:*)'), expected: 'ask' },
  { command: 'ls', rules: allow('Bash(ls *)'), expected: 'allow' },
  { command: 'ls -la', rules: allow('Bash(ls *)'), expected: 'allow' },
  { command: 'lsof -i', rules: allow('Bash(ls *)'), expected: 'ask' },
  { command: 'npm run test --coverage', rules: allow('Bash(npm run test *)'), expected: 'allow' },
  { command: 'npm run test-e2e', rules: allow('Bash(npm run test *)'), expected: 'ask' },
  // --- compound commands: every part must be allowed on its own
  { command: 'git status; git diff', rules: allow('Bash(git status:*)', 'Bash(git diff:*)'), expected: 'allow' },
  { command: 'git status; rm -f build', rules: allow('Bash(git status:*)'), expected: 'ask', reason: /"rm -f build" in this compound command/ },
  { command: 'git status; rm -rf build', rules: allow('Bash(git status:*)'), expected: 'deny', reason: /built-in/ },
  { command: 'git status && curl evil.sh', rules: allow('Bash(git status:*)'), expected: 'ask', reason: /"curl evil.sh"/ },
  { command: 'git status || curl x', rules: allow('Bash(git status:*)'), expected: 'ask' },
  // A shell reading its script from a pipe runs what cairn cannot see: denied while deny rules (the built-ins) are in force, asked otherwise.
  { command: 'git log | sh', rules: allow('Bash(git log:*)'), expected: 'deny', reason: /input/ },
  { command: 'git log | sh', rules: allow('Bash(git log:*)'), lift: LIFT_ALL, expected: 'ask', reason: /input/ },
  { command: 'git log | grep fix', rules: allow('Bash(git log:*)', 'Bash(grep:*)'), expected: 'allow' },
  { command: 'git status\ncurl x', rules: allow('Bash(git status:*)'), expected: 'ask' },
  { command: 'git status $(curl x)', rules: allow('Bash(git status:*)'), expected: 'ask', reason: /"curl x"/ },
  { command: 'git status `curl x`', rules: allow('Bash(git status:*)'), expected: 'ask' },
  { command: 'diff <(curl x) a', rules: allow('Bash(diff:*)'), expected: 'ask' },
  { command: 'echo $(git status)', rules: allow('Bash(echo:*)', 'Bash(git status:*)'), expected: 'allow' },
  { command: 'eval "ls; curl x"', rules: allow('Bash(ls:*)', 'Bash(eval:*)'), expected: 'ask', reason: /"curl x"/ },
  { command: 'eval "ls -la"', rules: allow('Bash(ls:*)'), expected: 'allow' },
  { command: 'cat${IFS}/etc/passwd', rules: allow('Bash(cat*)'), expected: 'deny', reason: /IFS/ },
  { command: 'cat${IFS}/etc/passwd', rules: allow('Bash(cat*)'), lift: LIFT_ALL, expected: 'ask', reason: /IFS/ },
  { command: 'IFS=/; ls', rules: allow('Bash(ls:*)'), expected: 'deny', reason: /IFS/ },
  { command: 'IFS=/; ls', rules: allow('Bash(ls:*)'), lift: LIFT_ALL, expected: 'ask', reason: /IFS/ },
  { command: '$(echo rm) -rf x', rules: allow('Bash(echo:*)'), expected: 'deny', reason: /command name/ },
  { command: '$(echo rm) -rf x', rules: allow('Bash(echo:*)'), lift: LIFT_ALL, expected: 'ask', reason: /command name/ },
  // A word computed at run time could name a file anywhere: a prefix rule vouches for the program, not for that (`X=~/.ssh/id; cat $X`).
  { command: 'for f in a b; do git add $f; done', rules: allow('Bash(git add:*)'), expected: 'ask', reason: /\$f, which cannot be located/ },
  { command: 'X=~/.ssh/id_rsa; cat $X', rules: allow('Bash(cat:*)'), expected: 'ask', reason: /\$X, which cannot be (located|resolved)/ },
  { command: 'git add a b', rules: allow('Bash(git add:*)'), expected: 'allow' },
  { command: 'if true; then curl x; fi', rules: allow('Bash(true)'), expected: 'ask' },
  // --- redirections are writes
  // A redirect is a write: it asks where write_file would ask for the same file.
  { command: 'echo hi > out.txt', rules: allow('Bash(echo:*)'), expected: 'ask' },
  { command: 'echo hi > /tmp/cairn-corpus-out', rules: allow('Bash(echo:*)'), expected: 'ask', reason: /outside the workspace/ },
  { command: 'echo hi >> ../sibling.txt', rules: allow('Bash(echo:*)'), expected: 'ask', reason: /outside the workspace/ },
  { command: 'echo hi > ~/.bashrc', rules: allow('Bash(echo:*)'), expected: 'ask' },
  { command: 'echo hi > $OUT', rules: allow('Bash(echo:*)'), expected: 'ask', reason: /cannot be resolved/ },
  { command: 'cd /tmp && echo hi > x', rules: allow('Bash(echo:*)', 'Bash(cd:*)'), expected: 'ask', reason: /cannot be resolved/ },
  { command: 'echo \'{"permissions":{"allow":["Bash"]}}\' > .cairn/settings.local.json', rules: allow('Bash(echo:*)'), expected: 'ask', reason: /protected/ },
  // --- deny rules see every part
  { command: 'touch x', rules: { deny: ['Bash(touch:*)'] }, expected: 'deny' },
  { command: 'ls; touch x', rules: { allow: ['Bash(ls:*)'], deny: ['Bash(touch:*)'] }, expected: 'deny', reason: /touch/ },
  { command: 'echo $(touch x)', rules: { allow: ['Bash'], deny: ['Bash(touch:*)'] }, expected: 'deny' },
  { command: 'timeout 5 touch x', rules: { deny: ['Bash(touch:*)'] }, expected: 'deny' },
  { command: "sh -c 'ls && touch x'", rules: { allow: ['Bash(ls:*)'], deny: ['Bash(touch:*)'] }, expected: 'deny' },
  { command: 'xargs touch < list', rules: { deny: ['Bash(touch:*)'] }, expected: 'deny' },
  { command: 'git push --force', rules: { allow: ['Bash(git:*)'], deny: ['Bash(git push:*)'] }, expected: 'deny' },
  { command: "bash -c 'ls'", rules: { allow: ['Bash(ls:*)'], deny: ['Bash(bash:*)'] }, expected: 'deny' },
  // --- ask rules see every part and beat allow rules
  { command: 'git status && git push', rules: { allow: ['Bash(git:*)'], ask: ['Bash(git push:*)'] }, expected: 'ask', reason: /ask rule/ },
  // --- wrappers are looked through before matching
  { command: 'timeout 30 npm test', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  { command: 'nice -n 10 npm test', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  { command: 'nohup npm test', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  { command: 'env CI=1 npm test', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  { command: 'command npm test', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  { command: 'CI=1 NODE_ENV=test npm test', rules: allow('Bash(npm test:*)'), expected: 'allow' },
  // xargs adds arguments from its input: `rm` could get -r, unless -- comes first.
  { command: 'find . -name "*.tmp" | xargs -n 1 rm', rules: allow('Bash(find:*)'), expected: 'deny', reason: /could make it recursive/ },
  { command: 'find . -name "*.tmp" | xargs -n 1 rm --', rules: allow('Bash(find:*)'), expected: 'ask', reason: /"rm --"/ },
  { command: 'find . | xargs -0 grep foo', rules: allow('Bash(find:*)', 'Bash(grep:*)'), expected: 'allow' },
  { command: 'timeout 5 curl x', rules: allow('Bash(timeout:*)'), expected: 'ask' }, // allowing the wrapper is not allowing what it runs
  { command: 'PATH=/tmp/evil npm test', rules: allow('Bash(npm test:*)'), expected: 'ask' },
  { command: "sh -c 'git status && git diff'", rules: allow('Bash(git status:*)', 'Bash(git diff:*)'), expected: 'allow' },
  { command: 'bash -c "git status; curl x"', rules: allow('Bash(git status:*)'), expected: 'ask', reason: /"curl x"/ },
  { command: 'bash -c "$SCRIPT"', rules: allow('Bash(bash:*)'), expected: 'deny', reason: /computed/ },
  { command: 'bash -c "$SCRIPT"', rules: allow('Bash(bash:*)'), lift: LIFT_ALL, expected: 'ask' },
  // --- unparseable commands are never allowed by a rule: denied while deny rules are in force, asked otherwise
  { command: 'git status (', rules: allow('Bash(git status:*)'), expected: 'deny', reason: /parsed/ },
  { command: 'git status (', rules: allow('Bash(git status:*)'), lift: LIFT_ALL, expected: 'ask', reason: /parsed/ },
  { command: 'echo "unterminated', rules: ALL, expected: 'deny', reason: /parsed/ },
  // --- read-only commands inside the workspace run without a rule (issue 11, as Claude Code does)
  { command: 'ls', expected: 'allow', reason: /read-only/ },
  { command: 'cat README.md', expected: 'allow', reason: /read-only/ },
  { command: 'cat /etc/passwd', expected: 'ask', reason: /outside the workspace/ },
];

let workspace: string;
beforeAll(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'cairn-corpus-')));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('bash safety corpus', () => {
  it('has a corpus large enough to cover every rule', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(60);
  });

  it.each(corpus.map((c) => [c.command, c] as const))('%s', async (_name, c) => {
    const checker = createPermissionChecker({
      workspace,
      mode: 'default',
      rules: { allow: c.rules?.allow ?? [], ask: c.rules?.ask ?? [], deny: c.rules?.deny ?? [] },
      cairnHome: join(workspace, '.cairn-home'),
      homeDir: join(workspace, '..'),
      ...(c.lift ? { liftedBuiltinDeny: c.lift } : {}),
    });
    const result = await checker.check(bash, { command: c.command });
    expect(result.behavior, result.reason).toBe(c.expected);
    if (c.reason) expect(result.reason).toMatch(c.reason);
  });
});

describe('bash safety corpus in auto mode, with a classifier that approves everything', () => {
  it.each(corpus.map((c) => [c.command, c] as const))('%s', async (_name, c) => {
    await expectAutoModeHolds(workspace, c);
  });
});
