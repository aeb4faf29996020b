import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// What the sandbox-on-by-default tests (headless and in a real terminal) share: a small project with
// a failing test, committed; a site on the host that records what reached it; a folder outside.

export const GIT_ID = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };

/** The project: add() is wrong (npm test fails with `FAIL add(2, 3) = -1`), a build prints `built-ok`, a report and a check script. */
export const CALC_PROJECT: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', private: true, scripts: { test: 'node test/add.test.js', build: 'node scripts/build.js' } }),
  'src/add.js': 'exports.add = (a, b) => {\n  return a - b;\n};\n',
  'test/add.test.js': "const { add } = require('../src/add.js');\nif (add(2, 3) !== 5) { console.error('FAIL add(2, 3) =', add(2, 3)); process.exit(1); }\nconsole.log('PASS add');\n",
  'scripts/build.js': "require('fs').mkdirSync('dist', { recursive: true });\nrequire('fs').writeFileSync('dist/out.txt', 'built');\nconsole.log('built-' + 'ok');\n",
  'scripts/report.js': "console.log('report:', require('fs').readdirSync('src').join(','));\n",
  'scripts/check.sh': 'echo checked "$(ls test | wc -l)" tests\n',
  '.gitignore': 'node_modules\ndist\n',
};

/** git init and a first commit of everything in `dir`. */
export function commitAll(dir: string): void {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ID } });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
}

export interface HostSite {
  port: number;
  /** The paths requested so far. */
  hits: string[];
  /** A folder on the host outside every writable place (not under /tmp: inside the sandbox /tmp is the session's own). */
  outside: string;
  close(): Promise<void>;
}

/** A loopback site answering `from-the-host`, and a folder outside the workspace. */
export async function startHostSite(): Promise<HostSite> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('from-the-host\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const outside = await fs.mkdtemp(path.join('/var/tmp', 'cairn-outside-'));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    outside,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(outside, { recursive: true, force: true });
    },
  };
}
