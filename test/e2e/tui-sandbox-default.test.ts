import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/availability.js';
import { CALC_PROJECT, commitAll, GIT_ID, startHostSite, type HostSite } from '../helpers/sandbox-task.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 33's "done means" in a real terminal: the built cairn with no settings and no flags, on the
// offline model, real bubblewrap. The first start says the sandbox is on; a typical task's commands
// run without an approval card; a write outside the workspace is asked every time, one into
// .git/hooks is refused, a host off the allow list is asked.

const { start } = cairnTerminals();
let site: HostSite;

beforeAll(async () => {
  site = await startHostSite();
});
afterAll(() => site.close());

const usable = TmuxTerminal.available() && (await probeSandbox()).available;

describe.skipIf(!usable)('sandbox on by default in a real terminal', () => {
  it('says so once at the first start, runs a typical task without an approval, and asks or refuses where containment ends', async () => {
    const { term, ws } = await start({
      files: CALC_PROJECT,
      env: GIT_ID,
      columns: 160,
      rows: 50,
      prepare: (w) => commitAll(w.dir),
    });
    await term.waitForText('The sandbox is on:');

    // Each command prints a marker its own text does not contain ($((...)) is worked out by bash),
    // so the marker shows only once the command has run: an approval card would hold it back.
    const steps: [command: string, marker: string][] = [
      ['npm install --no-audit --no-fund; echo step-$((1))', 'step-1'],
      ['npm test; echo step-$((1+1))', 'FAIL add(2, 3) = -1'],
      ["sed -i 's/return a - b/return a + b/' src/add.js && npm test", 'PASS add'],
      ['npm run build', 'built-ok'],
      ['git add -A && git commit -q -m fix-add && git log -1 --format=committed:%s', 'committed:fix-add'],
      ['mkdir -p lib && mv dist/out.txt lib/ && rm lib/out.txt && echo step-$((2+1))', 'step-3'],
    ];
    for (const [command, marker] of steps) {
      term.type(`run ${command}`);
      term.keys('Enter');
      const screen = await term.waitForScreen((s) => s.includes(marker) || s.includes('Allow bash?'), marker, 60_000);
      expect(screen, command).not.toContain('Allow bash?');
    }
    expect(await fs.readFile(path.join(ws.dir, 'src/add.js'), 'utf8')).toContain('a + b');
    expect(execFileSync('git', ['show', '--name-only', '--format=', 'HEAD'], { cwd: ws.dir, encoding: 'utf8' })).toContain('src/add.js');

    // Outside the workspace: asked, and asked again the next time.
    const target = path.join(site.outside, 'escaped.txt');
    for (const round of [1, 2]) {
      term.type(`run touch ${target}`);
      term.keys('Enter');
      await term.waitForScreen((s) => (s.match(/Allow bash\?/g) ?? []).length === 1, `the approval, round ${round}`, 60_000);
      await term.pauseBeforeAnswering();
      term.keys('Escape');
      await term.waitForScreen((s) => !s.includes('Allow bash?'), `the approval answered, round ${round}`);
    }
    expect(existsSync(target)).toBe(false);

    // Into .git/hooks, where the analysis cannot see it: run unasked, refused by the sandbox.
    term.type(`run python3 -c "open('.git/hooks/pre-commit', 'w').write('x')"`);
    term.keys('Enter');
    await term.waitForText('The sandbox refused writing', 60_000);
    expect(existsSync(path.join(ws.dir, '.git/hooks/pre-commit'))).toBe(false);

    // A host off the allow list: asked; refused, nothing reaches it.
    term.type(`run curl -s http://127.0.0.1:${site.port}/reach`);
    term.keys('Enter');
    await term.waitForText('Allow sandbox_network?', 60_000);
    await term.pauseBeforeAnswering();
    term.keys('Escape');
    await term.waitForText('The sandbox refused network access to 127.0.0.1', 60_000);
    expect(site.hits).toEqual([]);

    term.type('/sandbox');
    term.keys('Enter');
    await term.waitForText('runs without asking', 30_000);
  }, 300_000);

  it('--no-sandbox brings the approvals back, and no intro is said', async () => {
    const off = await start({ args: '--no-sandbox', files: { 'a.txt': 'a\n' } });
    off.term.type('run touch made.txt');
    off.term.keys('Enter');
    await off.term.waitForText('Allow bash?', 60_000);
    expect(off.term.screen()).not.toContain('The sandbox is on:');
  }, 120_000);
});
