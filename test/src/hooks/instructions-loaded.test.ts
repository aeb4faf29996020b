// InstructionsLoaded with a real hook script, through the real system prompt source: each instruction
// file is told once (the first prompt, then a subfolder's when a read reaches it), with Claude Code's fields.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';
import { instructionsLoadedHooks } from '../../../src/hooks/instructions-loaded.js';
import type { AgentEvent } from '../../../src/events.js';
import { claudeHooks, command, hookWorkspace, script } from '../../helpers/hook-rig.js';
import { waitFor } from '../../helpers/wait-for.js';

let dir: string;
beforeEach(async () => {
  dir = await hookWorkspace();
  await fs.mkdir(path.join(dir, '.git'));
  await fs.writeFile(path.join(dir, 'CLAUDE.md'), 'Use tabs.\n');
  await fs.mkdir(path.join(dir, 'api'));
  await fs.writeFile(path.join(dir, 'api', 'CLAUDE.md'), 'Every handler validates its input.\n');
  await fs.writeFile(path.join(dir, 'api', 'routes.ts'), 'export {};\n');
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const readLog = async (log: string) => (await fs.readFile(log, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

it('tells each instruction file once with file_path, memory_type and load_reason; a hook cannot block the load', async () => {
  const log = path.join(dir, 'loaded.jsonl');
  // It exits 2, which blocks other events: here it is only a notice, and the file still loads.
  const hook = await script(dir, 'loaded.sh', `python3 -c 'import sys,json; d=json.load(sys.stdin); print(json.dumps(d))' >> "${log}"\nexit 2`);
  const { runner } = claudeHooks(dir, { InstructionsLoaded: [{ hooks: [command(hook)] }] });
  const events: AgentEvent[] = [];
  const home = path.join(dir, '.home');
  const source = createSystemPromptSource({
    cwd: dir, cairnHome: home, claudeHome: path.join(dir, '.claude-home'), home, toolNames: () => [], now: () => new Date(0),
    onInstructionsLoaded: instructionsLoadedHooks(runner, (e) => events.push(e), [home]),
  });
  const first = await source.build({ mode: 'default', model: 'm' });
  expect(first.text).toContain('Use tabs.');
  await source.build({ mode: 'default', model: 'm' });
  await waitFor(async () => (await readLog(log)).length === 1);
  expect((await readLog(log))[0]).toMatchObject({ hook_event_name: 'InstructionsLoaded', file_path: path.join(dir, 'CLAUDE.md'), memory_type: 'Project', load_reason: 'session_start' });

  expect(await source.forPaths([path.join(dir, 'api', 'routes.ts')], 'read api/routes.ts')).toContain('Every handler validates its input.');
  await waitFor(async () => (await readLog(log)).length === 2);
  expect((await readLog(log))[1]).toMatchObject({ file_path: path.join(dir, 'api', 'CLAUDE.md'), load_reason: 'nested_traversal' });
  await waitFor(() => events.filter((e) => e.type === 'hook').length === 2);
});

it('the matcher is the load reason: a hook for nested_traversal is not run at session start', async () => {
  const log = path.join(dir, 'nested.jsonl');
  const hook = await script(dir, 'nested.sh', `cat >> "${log}"; echo >> "${log}"`);
  const { runner } = claudeHooks(dir, { InstructionsLoaded: [{ matcher: 'nested_traversal', hooks: [command(hook)] }] });
  const source = createSystemPromptSource({
    cwd: dir, cairnHome: path.join(dir, '.home'), claudeHome: path.join(dir, '.claude-home'), toolNames: () => [], now: () => new Date(0),
    onInstructionsLoaded: instructionsLoadedHooks(runner, () => undefined, []),
  });
  await source.build({ mode: 'default', model: 'm' });
  await source.forPaths([path.join(dir, 'api', 'routes.ts')], 'read api/routes.ts');
  await waitFor(async () => (await fs.readFile(log, 'utf8')).includes('api'));
  const lines = (await fs.readFile(log, 'utf8')).trim().split('\n').filter((l) => l.trim() !== '');
  expect(lines.map((l) => (JSON.parse(l) as { file_path: string }).file_path)).toEqual([path.join(dir, 'api', 'CLAUDE.md')]);
});
