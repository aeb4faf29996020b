import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createBashTool, MAX_OUTPUT_CHARS } from '../../../src/tools/bash.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createListDirTool } from '../../../src/tools/list-dir.js';
import { createShellManager } from '../../../src/shells/shell-manager.js';

let dir: string;
const ctx = () => ({ cwd: dir, signal: new AbortController().signal });
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-errors-')));
  await fs.mkdir(path.join(dir, 'dist'));
  await fs.mkdir(path.join(dir, 'src'));
  await fs.writeFile(path.join(dir, 'src', 'app.ts'), 'x\n');
});

describe('error results name the cause and the next step', () => {
  it('a directory not found suggests the near name (list -> dist), or glob', async () => {
    const list = createListDirTool();
    expect(await list.call({ path: 'list' }, ctx())).toMatchObject({ isError: true, content: 'Directory not found: list. Did you mean dist?' });
    expect((await list.call({ path: 'zzzz/qqq' }, ctx())).content).toBe('Directory not found: zzzz/qqq. Use glob to find it.');
  });

  it('editing a file not found suggests the near name and write_file', async () => {
    const r = await createEditFileTool().call({ path: 'src/ap.ts', old_string: 'x', new_string: 'y' }, ctx());
    expect(r).toMatchObject({ isError: true, content: 'File not found: src/ap.ts. Did you mean src/app.ts? To create a new file use write_file.' });
  });

  it('a timed-out command says the limit and how to run it longer: a larger timeout or the background', async () => {
    const plain = await createBashTool().call({ command: 'sleep 5', timeout: 300 }, ctx());
    expect(plain.isError).toBe(true);
    expect(plain.content).toContain('Command timed out after 300 ms (the limit for this call) and its process group was killed. If it needs longer, pass a larger timeout (up to 600000 ms), or run it in the background with its output redirected to a file (cmd > out.log 2>&1 &) and read that file.');
    const shells = createShellManager({ onEvent: () => undefined });
    try {
      const withShells = await createBashTool({ shells }).call({ command: 'sleep 5', timeout: 300 }, ctx());
      expect(withShells.content).toContain('If it needs longer, pass a larger timeout (up to 600000 ms), or run it with run_in_background: true and read its output with bash_output.');
    } finally {
      shells.killAll();
    }
  });

  it('cut output says how to see the rest', async () => {
    const r = await createBashTool().call({ command: `head -c ${MAX_OUTPUT_CHARS * 2} /dev/zero | tr '\\0' a` }, ctx());
    expect(r.content).toMatch(/\.\.\. \d+ chars omitted \(to see them, redirect the output to a file and read it with read_file\) \.\.\./);
  });
});
