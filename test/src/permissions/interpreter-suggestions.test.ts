import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { bashSuggestion } from '../../../src/permissions/rules/suggestions.js';
import { fakeBashTool } from '../../helpers/permission-tools.js';

// "Always" on `node src/cli.js '2 weeks'` offered bash(node:*): any node program, which is any
// code at all. The rule an interpreter gets keeps its script, or is the exact command.

async function checker() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-interp-')));
  return createPermissionChecker({ workspace: root, mode: 'default', rules: { allow: [], ask: [], deny: [] }, cairnHome: join(root, '.cairn'), homeDir: join(root, 'home') });
}

describe('the rule offered for an interpreter', () => {
  it.each([
    ["node src/cli.js '2 weeks'", 'bash(node src/cli.js:*)'],
    ['python3 scripts/report.py --week 3', 'bash(python3 scripts/report.py:*)'],
    ['sh ./build.sh', 'bash(sh ./build.sh:*)'],
    ["node -e 'console.log(1)'", "bash(node -e 'console.log(1)')"],
    ['python3 -m http.server', 'bash(python3 -m http.server)'],
  ])('%s -> %s', (command, rule) => {
    expect(bashSuggestion('bash', command)).toBe(rule);
  });

  it('is never the bare interpreter (node:*, python3:*, sh:*...)', () => {
    for (const command of ['node src/cli.js', 'node --require ./x.js app.js', 'node', 'python3 -c "print(1)"', 'bash -c "rm -rf x"', 'perl -e 1', 'ruby x.rb', 'sh']) {
      expect(bashSuggestion('bash', command) ?? '', command).not.toMatch(/^bash\((node|python3|bash|perl|ruby|sh):\*\)$/);
    }
  });

  it('once remembered it allows that script with other arguments, and neither another script nor code given inline', async () => {
    const c = await checker();
    const first = await c.check(fakeBashTool, { command: "node src/cli.js '2 weeks'" });
    expect(first).toMatchObject({ behavior: 'ask', suggestions: ['bash(node src/cli.js:*)'] });
    c.addSessionRules(first.behavior === 'ask' ? first.suggestions : []);
    expect((await c.check(fakeBashTool, { command: "node src/cli.js '3 days'" })).behavior).toBe('allow');
    for (const other of ['node other.js', "node -e 'require(\"fs\").rmSync(\"x\")'", 'node src/cli.js.evil.js']) {
      expect((await c.check(fakeBashTool, { command: other })).behavior, other).not.toBe('allow');
    }
  });
});
