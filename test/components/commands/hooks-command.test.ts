import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hooksCommands } from '../../../components/commands/hooks-command.js';
import type { AppContext } from '../../../components/actions/app-context.js';
import { createHookRunner } from '../../../src/hooks/hook-runner.js';
import { createHookSet } from '../../../src/hooks/hook-set.js';
import { hookWorkspace, script } from '../../helpers/hook-rig.js';

let ws: string;
beforeEach(async () => {
  ws = await hookWorkspace();
  await fs.mkdir(path.join(ws, '.claude'));
});
afterEach(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

function context(printed: string[]): AppContext {
  return { print: (m: string) => printed.push(m) } as unknown as AppContext;
}

describe('/hooks', () => {
  it('names where each hook came from (user, project, local settings) and its kind (http, prompt)', async () => {
    const home = path.join(ws, 'ch');
    await fs.mkdir(home, { recursive: true });
    await fs.writeFile(path.join(home, 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'http', url: 'http://127.0.0.1:9/hook' }] }] } }));
    await fs.writeFile(path.join(ws, '.claude', 'settings.local.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'prompt', prompt: 'Tests run?' }] }] } }));
    const set = await createHookSet({ workspace: ws, cairnHome: home, claudeHome: path.join(ws, 'cl'), trusted: () => true });
    const printed: string[] = [];
    await hooksCommands(set)[0]?.run('', context(printed));
    expect(printed[0]).toContain(`Stop: POST http://127.0.0.1:9/hook  (60s) · user settings: ${path.join(home, 'settings.json')} hooks.Stop[0].hooks[0]`);
    expect(printed[0]).toContain(`Stop: prompt: Tests run?  (30s) · local settings: ${path.join(ws, '.claude', 'settings.local.json')} hooks.Stop[0].hooks[0]`);
  });


  it('lists each hook with its file and key; /hooks off stops them running, /hooks on brings them back', async () => {
    const marker = path.join(ws, 'ran');
    const hook = await script(ws, 'mark.sh', `touch "${marker}"`);
    const settings = path.join(ws, '.claude', 'settings.json');
    await fs.writeFile(settings, JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: hook }] }] } }));
    const set = await createHookSet({ workspace: ws, cairnHome: path.join(ws, 'ch'), claudeHome: path.join(ws, 'cl'), trusted: () => true });
    const runner = createHookRunner({ hooks: () => set.active(), cwd: ws, env: process.env });
    const [command] = hooksCommands(set);
    const printed: string[] = [];
    await command?.run('', context(printed));
    expect(printed[0]).toContain(`PreToolUse [Write]: ${hook}  (60s) · project settings: ${settings} hooks.PreToolUse[0].hooks[0]`);

    await command?.run('off', context(printed));
    await runner.run({ event: 'PreToolUse', toolName: 'write_file', toolInput: {} });
    await expect(fs.access(marker)).rejects.toThrow();
    await command?.run('', context(printed));
    expect(printed.at(-1)).toContain('off');

    await command?.run('on', context(printed));
    await runner.run({ event: 'PreToolUse', toolName: 'write_file', toolInput: {} });
    await fs.access(marker);
  });

  it('/hooks reload reports an invalid entry with its file and key', async () => {
    const set = await createHookSet({ workspace: ws, cairnHome: path.join(ws, 'ch'), claudeHome: path.join(ws, 'cl'), trusted: () => true });
    await fs.writeFile(path.join(ws, '.claude', 'settings.json'), JSON.stringify({ hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'true', timeout: -1 }] }] } }));
    const printed: string[] = [];
    await hooksCommands(set)[0]?.run('reload', context(printed));
    expect(printed[0]).toContain(`${path.join(ws, '.claude', 'settings.json')}: hooks.PostToolUse[0].hooks[0].timeout: "timeout" must be a positive number`);
  });
});
