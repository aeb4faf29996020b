import { mkdtemp, mkdir, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { ruleLines } from '../../../src/permissions/rules/rule-lines.js';
import { loadSettings } from '../../../src/permissions/rules/settings.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

const SETTINGS = `{
  "env": { "A": "1", "permissions": ["not", "these"] },
  "permissions": {
    "allow": [
      "Bash(npm test:*)",
      "Read(/docs/**)"
    ],
    "deny": ["Bash(rm:*)", "Bash(curl \\"x\\":*)"],
    "ask": [
      "Bash(git push:*)"
    ]
  }
}
`;

describe('the line each permission rule stands on', () => {
  it('finds every rule of permissions.allow/ask/deny, not strings of the same name elsewhere', () => {
    const lines = ruleLines(SETTINGS);
    expect(Object.fromEntries(lines)).toEqual({ 'allow[0]': 5, 'allow[1]': 6, 'deny[0]': 8, 'deny[1]': 8, 'ask[0]': 10 });
  });

  it('loaded settings carry file and line, and the checker names them for the rule that decided', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'cairn-lines-')));
    const home = join(ws, 'home');
    await mkdir(join(ws, '.cairn'), { recursive: true });
    await writeFile(join(ws, '.cairn', 'settings.json'), SETTINGS);
    const loaded = await loadSettings({ workspace: ws, cairnHome: home, claudeHome: join(ws, 'claude'), trusted: true });
    const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: loaded.rules, cairnHome: home, homeDir: ws, origins: loaded.origins });
    const bash = fakeBashTool;
    const denied = await checker.check(bash, { command: 'rm notes.txt' });
    expect(denied).toMatchObject({ behavior: 'deny', by: { kind: 'rule', list: 'deny', rules: ['Bash(rm:*)'] } });
    expect(checker.ruleSource?.('deny', 'Bash(rm:*)')).toEqual({ rule: 'Bash(rm:*)', where: `${join(ws, '.cairn', 'settings.json')}: permissions.deny[0]`, file: join(ws, '.cairn', 'settings.json'), line: 8 });
    const allowed = await checker.check(bash, { command: 'npm test -- --watch=false' });
    expect(allowed).toMatchObject({ behavior: 'allow', by: { kind: 'rule', list: 'allow', rules: ['Bash(npm test:*)'] } });
    expect(checker.ruleSource?.('allow', 'Bash(npm test:*)')?.line).toBe(5);
    // An anchored path rule is found under the text the checker holds for it.
    const anchored = loaded.origins.find((o) => o.rule === 'Read(/docs/**)')?.anchored ?? [];
    expect(anchored.length).toBeGreaterThan(0);
    for (const text of anchored) expect(checker.ruleSource?.('allow', text)).toMatchObject({ rule: 'Read(/docs/**)', line: 6 });
  });

  it('a rule saved by an "always allow" answer is found in the local settings file at its line', async () => {
    const ws = await realpath(await mkdtemp(join(tmpdir(), 'cairn-lines-')));
    const checker = createPermissionChecker({ workspace: ws, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(ws, 'home'), homeDir: ws });
    await checker.saveProjectRules(['Bash(make:*)']);
    expect(checker.ruleSource?.('allow', 'Bash(make:*)')).toMatchObject({ file: join(ws, '.cairn', 'settings.local.json'), line: 4 });
    checker.addSessionRules(['Bash(ls:*)']);
    expect(checker.ruleSource?.('allow', 'Bash(ls:*)')).toEqual({ rule: 'Bash(ls:*)', where: 'this session (an approval answer)' });
  });
});
