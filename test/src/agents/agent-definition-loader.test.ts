import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAgentDefinitions } from '../../../src/agents/agent-definition-loader.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';

const fifos: string[] = [];
afterEach(() => {
  for (const f of fifos.splice(0)) releaseFifo(f);
});

async function workspace() {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-agent-files-')));
  const dir = path.join(base, 'ws', '.cairn', 'agents');
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, 'good.md'), '---\nname: good\ndescription: Works\n---\nDo it.');
  return { home: path.join(base, 'home'), ws: path.join(base, 'ws'), dir };
}

describe('agent definition files that are not files', () => {
  it('a FIFO named x.md is reported by path and skipped, without blocking; the others load', { timeout: 5000 }, async () => {
    const { home, ws, dir } = await workspace();
    const fifo = path.join(dir, 'pipe.md');
    makeFifo(fifo);
    fifos.push(fifo);
    const { agents, problems } = await loadAgentDefinitions(home, ws);
    expect(agents.map((a) => a.name)).toContain('good');
    expect(problems).toEqual([{ file: fifo, message: 'is a FIFO (named pipe), not a file; not read' }]);
  });

  it('a directory named x.md is reported by path (not a bare EISDIR) and skipped', async () => {
    const { home, ws, dir } = await workspace();
    await fs.mkdir(path.join(dir, 'x.md'));
    const { agents, problems } = await loadAgentDefinitions(home, ws);
    expect(agents.map((a) => a.name)).toContain('good');
    expect(problems).toEqual([{ file: path.join(dir, 'x.md'), message: 'is a directory, not a file; not read' }]);
  });

  it('an agents folder that cannot be listed is reported by path; the other folders still load', async () => {
    const { home, ws } = await workspace();
    const claude = path.join(ws, '.claude', 'agents');
    await fs.mkdir(path.dirname(claude), { recursive: true });
    await fs.writeFile(claude, 'a file where the folder should be');
    const { agents, problems } = await loadAgentDefinitions(home, ws);
    expect(agents.map((a) => a.name)).toContain('good');
    expect(problems).toEqual([{ file: claude, message: 'cannot list the folder: ENOTDIR' }]);
  });

  it('a symbolic link to a missing file is reported, not taken for a file that vanished', async () => {
    const { home, ws, dir } = await workspace();
    const link = path.join(dir, 'gone.md');
    await fs.symlink(path.join(dir, 'deleted.md'), link);
    const { problems } = await loadAgentDefinitions(home, ws);
    expect(problems).toEqual([{ file: link, message: `is a symbolic link to ${path.join(dir, 'deleted.md')}, which does not exist` }]);
  });

  it('a definition saved with a UTF-8 BOM loads', async () => {
    const { home, ws, dir } = await workspace();
    await fs.writeFile(path.join(dir, 'bom.md'), '\ufeff---\nname: bom\ndescription: Saved on Windows\n---\nHello.');
    const { agents, problems } = await loadAgentDefinitions(home, ws);
    expect(problems).toEqual([]);
    expect(agents.find((a) => a.name === 'bom')).toMatchObject({ description: 'Saved on Windows', prompt: 'Hello.' });
  });
});
