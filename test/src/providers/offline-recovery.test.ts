import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import type { AgentEvent } from '../../../src/events.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const r of runtimes.splice(0)) r.close();
});

async function offlineSession(files: Record<string, string>) {
  const ws = await tempWorkspace(files);
  const runtime = await createRuntime({ cwd: ws.dir, env: { HOME: ws.home, CAIRN_HOME: ws.home, CAIRN_OFFLINE_DELAY_MS: '0', PATH: process.env['PATH'] ?? '' }, interactive: false, persist: false, permissionMode: 'acceptEdits' });
  runtimes.push(runtime);
  const events: AgentEvent[] = [];
  runtime.session.subscribe((e) => events.push(e));
  const calls = () => events.flatMap((e) => (e.type === 'tool_result' ? [`${e.name}${e.is_error ? ' (failed)' : ''}`] : []));
  return { runtime, dir: ws.dir, calls };
}

describe('the offline model and the stale-read guard', () => {
  it('reads a file before editing it, in one message', async () => {
    const { runtime, dir, calls } = await offlineSession({ 'a.txt': 'alpha\n' });
    const terminal = await runtime.session.run('edit a.txt: replace alpha with beta');
    expect(calls()).toEqual(['read_file', 'edit_file']);
    expect(await fs.readFile(path.join(dir, 'a.txt'), 'utf8')).toBe('beta\n');
    expect(terminal.result).toMatch(/^Done\.\n/);
  });

  it('writing over a file it has not read: refused, it reads the file and writes again; the summary tells the write', async () => {
    const { runtime, dir, calls } = await offlineSession({ 'c.txt': 'old\n' });
    const terminal = await runtime.session.run('write hello to c.txt');
    expect(calls()).toEqual(['write_file (failed)', 'read_file', 'write_file']);
    expect(await fs.readFile(path.join(dir, 'c.txt'), 'utf8')).toBe('hello\n');
    expect(terminal.result).toBe('Done.\n\n- Read `c.txt`: 1 line.\n- Wrote `c.txt`.\n');
  });

  it('a new file is written at once', async () => {
    const { runtime, calls } = await offlineSession({});
    await runtime.session.run('write hello to new.txt');
    expect(calls()).toEqual(['write_file']);
  });
});
