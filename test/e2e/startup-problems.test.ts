import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeFifo, releaseFifo } from '../helpers/fifo.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Each problem is told by file and cairn starts with everything else (built binary, real process).
const fifos: string[] = [];
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const f of fifos.splice(0)) releaseFifo(f);
  for (const t of terminals.splice(0)) t.kill();
});

async function brokenWorkspace() {
  const ws = await tempWorkspace({
    '.cairn/settings.local.json': JSON.stringify({ permissions: { deny: ['Bsh(rm:*)'] } }),
    '.cairn/agents/good.md': '---\nname: good\ndescription: Works\n---\nDo it.',
  });
  const settings = path.join(ws.dir, '.cairn', 'settings.json');
  makeFifo(settings);
  fifos.push(settings);
  const agentDir = path.join(ws.dir, '.cairn', 'agents', 'x.md');
  await fs.mkdir(agentDir);
  const agentFifo = path.join(ws.dir, '.cairn', 'agents', 'pipe.md');
  makeFifo(agentFifo);
  fifos.push(agentFifo);
  // Saved by a Windows editor: a BOM before the JSON.
  await fs.writeFile(path.join(ws.home, 'config.json'), `\ufeff${JSON.stringify({ defaultProvider: 'offline' })}`);
  return { ...ws, settings, agentDir, agentFifo };
}

describe('start-up with broken configuration files', () => {
  it('headless: a FIFO settings file, a FIFO and a directory as agent files, a BOM config and a misspelt tool are each reported; the run completes', async () => {
    const ws = await brokenWorkspace();
    const run = await runCairn(['-p', 'read a.txt'], { cwd: ws.dir, home: ws.home, timeoutMs: 15_000 });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`cairn: ${ws.settings}: is a FIFO (named pipe), not a file; not read; started without these settings`);
    expect(run.stderr).toContain(`cairn: Skipped agent definition ${ws.agentDir}: is a directory, not a file`);
    expect(run.stderr).toContain(`cairn: Skipped agent definition ${ws.agentFifo}: is a FIFO (named pipe), not a file`);
    expect(run.stderr).toMatch(/settings\.local\.json: permissions\.deny\[0\]: the rule "Bsh\(rm:\*\)" names an unknown tool "Bsh" \(did you mean Bash\?\).*Known tools: .*bash \(Bash\)/);
    expect(run.stdout).toMatch(/a\.txt/);
  });

  it.skipIf(!TmuxTerminal.available())('the full-screen app starts and shows the same problems as notices', async () => {
    const ws = await brokenWorkspace();
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 160, rows: 40 });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    const first = await term.waitForText('Ask cairn');
    expect(first.replace(/\s+/g, ' ')).toContain('is a FIFO (named pipe), not a file; not read; started without these settings');
    // The agent definitions and the tools are set up just after the first frame: their notices follow it.
    const flat = (await term.waitForScreen((s) => s.replace(/\s+/g, ' ').includes('did you mean Bash?'), 'the unknown tool notice')).replace(/\s+/g, ' ');
    expect(flat).toContain('x.md: is a directory, not a file');
    expect(flat).toContain('names an unknown tool "Bsh" (did you mean Bash?)');
  });
});
