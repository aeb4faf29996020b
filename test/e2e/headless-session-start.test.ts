import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { trustWorkspace } from '../../src/settings/workspace-trust.js';
import { anthropicReply, startAnthropicServer, type ScriptedServer, type AnthropicRequestBody } from '../helpers/anthropic-server.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';

// SessionStart hooks in `cairn -p`: their text reaches the model's first request (it failed in
// every headless run with "Cannot access 'writer' before initialization" before start-up was phased).

let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const HOOK = `node -e "process.stdout.write(JSON.stringify({hookSpecificOutput:{hookEventName:'SessionStart',additionalContext:'the dock opens at nine'}}))"`;

describe('SessionStart hooks with -p', () => {
  it("the hook's additionalContext is in the first request the model receives; nothing fails", async () => {
    const ws = await tempWorkspace();
    await fs.writeFile(path.join(ws.home, 'settings.json'), JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: HOOK }] }] } }));
    const s = await startAnthropicServer([anthropicReply([{ type: 'text', text: 'Nine.' }])]);
    server = s;
    const run = await runCairn(['-p', 'when does the dock open?', '--provider', 'anthropic'], { cwd: ws.dir, home: ws.home, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: s.url } });
    expect(run.stderr).not.toMatch(/failed|before initialization/);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Nine.');
    expect(s.requests).toHaveLength(1);
    const first = s.requests[0]!.body.messages[0]!;
    expect(first.role).toBe('user');
    const text = JSON.stringify(first.content);
    expect(text).toContain('the dock opens at nine');
    expect(text).toContain('when does the dock open?');
  });

  const fixtures = fileURLToPath(new URL('../../../shared/fixtures/claude-code/settings', import.meta.url));
  it('the real settings files with SessionStart hooks start cleanly in a trusted folder: each hook runs (its own outcome is told), no start-up error', async () => {
    const names: string[] = [];
    for (const name of (await fs.readdir(fixtures)).filter((n) => n.endsWith('.json')).sort()) {
      const text = await fs.readFile(path.join(fixtures, name), 'utf8');
      let data: { hooks?: { SessionStart?: unknown } };
      try {
        data = JSON.parse(text) as typeof data;
      } catch {
        continue; // not JSON: the settings tests cover how it is refused
      }
      if (data.hooks?.SessionStart) names.push(name);
    }
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const name of names) {
      const ws = await tempWorkspace({ '.claude/settings.json': await fs.readFile(path.join(fixtures, name), 'utf8') });
      await trustWorkspace({ workspace: ws.dir, cairnHome: ws.home });
      const run = await runCairn(['-p', 'hello', '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home, env: { CAIRN_OFFLINE_DELAY_MS: '0' } });
      expect(run.stderr, name).not.toMatch(/hooks failed|before initialization/);
      expect(run.code, name).toBe(0);
      // The hook ran: the script it names is not in the temp folder, so what it said (not found), naming the file it came from, is told.
      expect(run.stderr, name).toMatch(new RegExp(`cairn: SessionStart hook (error|message): .*(not found|No such file).*\\(${ws.dir}/\\.claude/settings\\.json\\)`));
    }
  });
});
