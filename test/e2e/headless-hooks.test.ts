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
});
