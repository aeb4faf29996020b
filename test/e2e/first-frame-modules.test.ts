import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

// What the built cairn loads before its first frame, through a module-load hook: the parsers
// for YAML and Markdown belong after it (they load with the engine and the first answer).
// The argument parser used to pull both in for `--agents`, passed or not (it still loads them
// before the frame when the flag is given: its definitions are checked before start).
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

const HOOKS = (log: string): string => `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  const result = await next(url, context);
  const source = result.source ? String(result.source) : '';
  const kinds = [source.includes('yaml.alias') ? 'yaml' : '', source.includes('marked(): input parameter') ? 'marked' : ''].filter(Boolean);
  appendFileSync(${JSON.stringify(log)}, 'load ' + url.split('/').pop() + ' ' + kinds.join(',') + '\\n');
  return result;
}
`;

const PRELOAD = (hooks: string, log: string): string => `
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
register(${JSON.stringify('file://' + hooks)});
const write = process.stdout.write.bind(process.stdout);
let shown = false;
process.stdout.write = (chunk, ...rest) => {
  if (!shown && String(chunk).includes('sk cairn')) {
    shown = true;
    appendFileSync(${JSON.stringify(log)}, 'FIRST-FRAME\\n');
  }
  return write(chunk, ...rest);
};
`;

describe.skipIf(!TmuxTerminal.available())('the modules loaded before the first frame', () => {
  it('leave out the YAML and Markdown parsers, which load after it', async () => {
    const ws = await tempWorkspace();
    const log = path.join(ws.home, 'modules.log');
    const hooks = path.join(ws.home, 'hooks.mjs');
    const preload = path.join(ws.home, 'preload.mjs');
    await fs.writeFile(hooks, HOOKS(log));
    await fs.writeFile(preload, PRELOAD(hooks, log));
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node --import ${preload} ${cairnBin}`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    // The engine and its skills' frontmatter load after the frame: YAML shows up then.
    await waitFor(async () => (await fs.readFile(log, 'utf8')).includes(' yaml'), { timeout: 15_000, message: 'the YAML parser loading after the frame' });
    const lines = (await fs.readFile(log, 'utf8')).trim().split('\n');
    const frameAt = lines.indexOf('FIRST-FRAME');
    expect(frameAt).toBeGreaterThan(0);
    const before = lines.slice(0, frameAt);
    expect(before.filter((l) => l.startsWith('load ')).length).toBeGreaterThan(10);
    expect(before.filter((l) => / (yaml|marked)/.test(l))).toEqual([]);
  });
});
