import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { decisionLogFile, readDecisionLog } from '../../src/session/decision-log.js';

const SETTINGS = `{
  "permissions": {
    "deny": [
      "Bash(curl:*)",
      "Bash(rm:*)"
    ]
  }
}
`;

describe('the permission decision log (built binary, headless)', () => {
  it('a deny names the rule, its file and line; the log in the session folder holds the same decisions', async () => {
    const ws = await tempWorkspace({ 'victim.txt': 'keep me\n', '.cairn/settings.json': SETTINGS });
    const run = await runCairn(['-p', 'run rm victim.txt', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    const decisions = ofType(run.events, 'permission_decision');
    expect(decisions).toHaveLength(1);
    expect(decisions[0]).toMatchObject({
      name: 'bash',
      input: 'rm victim.txt',
      verdict: 'deny',
      by: 'rule',
      rule: 'Bash(rm:*)',
      file: path.join(ws.dir, '.cairn', 'settings.json'),
      line: 5,
      mode: 'default',
    });
    expect(await fs.readFile(path.join(ws.dir, 'victim.txt'), 'utf8')).toBe('keep me\n');

    const sessionId = ofType(run.events, 'session_start')[0]?.session_id ?? '';
    const logged = await readDecisionLog(decisionLogFile(ws.home, ws.dir, sessionId));
    expect(logged.map(({ at: _at, ...d }) => d)).toEqual(decisions);
    expect(Number.isNaN(Date.parse(logged[0]?.at ?? ''))).toBe(false);
  });

  it('what nobody can be asked about is logged as denied by cairn with the reason', async () => {
    const ws = await tempWorkspace({});
    const outside = path.join(path.dirname(ws.dir), 'outside.txt');
    const run = await runCairn(['-p', `run touch ${outside}`, '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    const [decision] = ofType(run.events, 'permission_decision');
    expect(decision).toMatchObject({ verdict: 'deny', by: 'cairn', input: `touch ${outside}` });
    expect(decision?.reason).toContain('no one can be asked');
  });
});
