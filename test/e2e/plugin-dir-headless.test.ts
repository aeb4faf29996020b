import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// `--plugin-dir DIR` through the built binary, headless: a plugin folder (never installed, never
// enabled) loads for that run only; its command is expanded and runs against the offline model.
const prompts = (events: AgentEvent[]): string[] => events.flatMap((e) => (e.type === 'user_prompt' ? [e.text] : []));
const results = (events: AgentEvent[]): string[] => events.flatMap((e) => (e.type === 'tool_result' ? [`${e.name}: ${e.content}`] : []));

async function write(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

describe('cairn -p with --plugin-dir', () => {
  it("runs the folder's command for that run only; without the flag it is plain text", async () => {
    const ws = await tempWorkspace();
    const dir = join(ws.home, '..', 'dev', 'echo-kit');
    await write(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'echo-kit', version: '0.0.1' }));
    await write(join(dir, 'commands', 'shout.md'), '---\ndescription: Echo the words\nargument-hint: <words>\n---\nrun echo shouted-$ARGUMENTS\n');
    // A hook through ${CLAUDE_PLUGIN_ROOT}: blocks a command naming "forbidden".
    await write(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}"/hooks/guard.sh' }] }] } }));
    await write(join(dir, 'hooks', 'guard.sh'), '#!/bin/sh\nif grep -q forbidden; then echo "echo-kit: not that" >&2; exit 2; fi\nexit 0\n');
    await chmod(join(dir, 'hooks', 'guard.sh'), 0o755);
    const opts = { cwd: ws.dir, home: ws.home, env: { HOME: ws.home }, timeoutMs: 90_000 };
    const ask = (prompt: string, ...flags: string[]) => runCairn(['-p', prompt, '--output-format', 'stream-json', '--allowed-tools', 'Bash', ...flags], opts);

    const run = await ask('/echo-kit:shout hello', '--plugin-dir', dir);
    expect(run.code).toBe(0);
    expect(prompts(run.events)[0]).toBe('/echo-kit:shout hello\n\nrun echo shouted-hello');
    expect(run.events.some((e) => e.type === 'assistant')).toBe(true);
    // The bare name works while no other command has it.
    expect(prompts((await ask('/shout there', '--plugin-dir', dir)).events)[0]).toContain('run echo shouted-there');

    const blocked = await ask('run echo forbidden', '--plugin-dir', dir);
    expect(blocked.events.find((e) => e.type === 'hook' && e.outcome === 'blocked')).toMatchObject({ hook_event: 'PreToolUse', text: 'echo-kit: not that' });
    expect(results((await ask('run echo allowed', '--plugin-dir', dir)).events)[0]).toMatch(/^bash: .*allowed/);

    // Nothing was installed or enabled: the next run without the flag does not know the command.
    const without = await ask('/echo-kit:shout hello');
    expect(prompts(without.events)[0]).toBe('/echo-kit:shout hello');
    const unguarded = await ask('run echo forbidden');
    expect(unguarded.events.some((e) => e.type === 'hook')).toBe(false);
    expect(results(unguarded.events)[0]).toMatch(/^bash: .*forbidden/);
  }, 180_000);

  it('a --plugin-dir that is not a folder is refused before the run, naming it', async () => {
    const ws = await tempWorkspace();
    const missing = join(ws.home, '..', 'no-such-plugin');
    const run = await runCairn(['-p', 'hello', '--output-format', 'stream-json', '--plugin-dir', missing], { cwd: ws.dir, home: ws.home, env: { HOME: ws.home }, timeoutMs: 90_000 });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`--plugin-dir: ${missing}: no such folder`);
    expect(run.events).toEqual([]);
  }, 120_000);
});
