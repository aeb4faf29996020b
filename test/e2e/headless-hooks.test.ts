import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

describe('hooks headless', () => {
  it('stream-json carries hook events; a hook from $CAIRN_HOME/settings.json blocks a write', async () => {
    const ws = await tempWorkspace();
    const settings = { hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'echo "no writes in CI" >&2; exit 2' }] }] } };
    await fs.writeFile(path.join(ws.home, 'settings.json'), JSON.stringify(settings));
    const run = await runCairn(['-p', 'write hello to a.txt', '--output-format', 'stream-json', '--allowed-tools', 'Write'], { cwd: ws.dir, home: ws.home });
    const events = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.filter((e) => e['type'] === 'hook')).toEqual([
      expect.objectContaining({ hook_event: 'PreToolUse', outcome: 'blocked', text: 'no writes in CI', source: path.join(ws.home, 'settings.json'), tool_name: 'write_file' }),
    ]);
    await expect(fs.access(path.join(ws.dir, 'a.txt'))).rejects.toThrow();
  });

  it('a guard whose timeout (3,000,000 s) overflows a timer still blocks; the clamp is said on stderr with file and key', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.home, 'settings.json');
    const settings = { hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'sleep 1; echo "still guarding" >&2; exit 2', timeout: 3_000_000 }] }] } };
    await fs.writeFile(file, JSON.stringify(settings));
    const run = await runCairn(['-p', 'write hello to a.txt', '--allowed-tools', 'Write'], { cwd: ws.dir, home: ws.home });
    await expect(fs.access(path.join(ws.dir, 'a.txt'))).rejects.toThrow();
    expect(run.stderr).toContain(`${file}: hooks.PreToolUse[0].hooks[0].timeout: 3000000 seconds is longer than cairn waits for a hook`);
    expect(run.stderr.split(`${file}: hooks.PreToolUse[0].hooks[0].timeout`)).toHaveLength(2);
  });

  it('a guard that times out lets the call run (as in Claude Code), and text output says so on stderr', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws.home, 'settings.json');
    const settings = { hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'sleep 30; exit 2', timeout: 0.5 }] }] } };
    await fs.writeFile(file, JSON.stringify(settings));
    const run = await runCairn(['-p', 'write hello to a.txt', '--allowed-tools', 'Write'], { cwd: ws.dir, home: ws.home });
    expect(await fs.readFile(path.join(ws.dir, 'a.txt'), 'utf8')).toBeTruthy();
    expect(run.stderr).toContain(`cairn: PreToolUse hook error: hooks.PreToolUse[0].hooks[0]: timed out after 0.5s and was stopped (${file})`);
  });
});
