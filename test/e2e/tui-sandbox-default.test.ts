import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeSandbox } from '../../src/sandbox/availability.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Issue 33's "done means" in a real terminal: the built cairn with no settings and no flags, on the
// offline model, real bubblewrap. The first start says the sandbox is on; a typical task's commands
// run without an approval card; a write outside the workspace is asked every time, one into
// .git/hooks is refused, a host off the allow list is asked.

const { start } = cairnTerminals();
const GIT_ID = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
let server: http.Server;
let port: number;
const hits: string[] = [];
let outside: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('from-the-host\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  outside = await fs.mkdtemp(path.join('/var/tmp', 'cairn-tui-outside-'));
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await fs.rm(outside, { recursive: true, force: true });
});

const usable = TmuxTerminal.available() && (await probeSandbox()).available;

const files = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', private: true, scripts: { test: 'node test/add.test.js', build: 'node scripts/build.js' } }),
  'src/add.js': 'exports.add = (a, b) => {\n  return a - b;\n};\n',
  'test/add.test.js': "const { add } = require('../src/add.js');\nif (add(2, 3) !== 5) { console.error('FAIL add =', add(2, 3)); process.exit(1); }\nconsole.log('PASS add');\n",
  'scripts/build.js': "require('fs').mkdirSync('dist', { recursive: true });\nrequire('fs').writeFileSync('dist/out.txt', 'built');\nconsole.log('built-' + 'ok');\n",
  '.gitignore': 'node_modules\ndist\n',
};

describe.skipIf(!usable)('sandbox on by default in a real terminal', () => {
  it('says so once at the first start, runs a typical task without an approval, and asks or refuses where containment ends', async () => {
    const { term, ws } = await start({
      files,
      env: GIT_ID,
      columns: 160,
      rows: 50,
      prepare: (w) => {
        const git = (...args: string[]) => execFileSync('git', args, { cwd: w.dir, env: { ...process.env, ...GIT_ID } });
        git('init', '-q');
        git('add', '-A');
        git('commit', '-q', '-m', 'start');
      },
    });
    await term.waitForText('The sandbox is on:');

    // Each command prints a marker its own text does not contain ($((...)) is worked out by bash),
    // so the marker shows only once the command has run: an approval card would hold it back.
    const steps: [command: string, marker: string][] = [
      ['npm install --no-audit --no-fund; echo step-$((1))', 'step-1'],
      ['npm test; echo step-$((1+1))', 'FAIL add = -1'],
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
    const target = path.join(outside, 'escaped.txt');
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
    term.type(`run curl -s http://127.0.0.1:${port}/reach`);
    term.keys('Enter');
    await term.waitForText('Allow sandbox_network?', 60_000);
    await term.pauseBeforeAnswering();
    term.keys('Escape');
    await term.waitForText('The sandbox refused network access to 127.0.0.1', 60_000);
    expect(hits).toEqual([]);

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
