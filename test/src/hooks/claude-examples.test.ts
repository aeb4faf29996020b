// Claude Code's documented hook examples (hooks-guide), copied unchanged into .claude/settings.json.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHookRunner } from '../../../src/hooks/hook-runner.js';
import { loadHooks } from '../../../src/hooks/hook-set.js';
import { query } from '../../../src/loop/query.js';
import { userText } from '../../../src/messages.js';
import { createBashTool } from '../../../src/tools/bash.js';
import { createEditFileTool } from '../../../src/tools/edit-file.js';
import { createWriteFileTool } from '../../../src/tools/write-file.js';
import { collect, ofType } from '../../helpers/collect.js';
import { allowEverything } from '../../helpers/real-permissions.js';
import { hookWorkspace } from '../../helpers/hook-rig.js';
import { assistantText, scriptedProvider, toolCall } from '../../helpers/scripted-provider.js';

const SETTINGS = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: 'jq -r \'"\\(.tool_input.command) - \\(.tool_input.description // "No description")"\' >> ~/.claude/bash-command-log.txt' }],
      },
      {
        matcher: 'Edit|MultiEdit|Write',
        hooks: [{ type: 'command', command: "python3 -c \"import json, sys; data=json.load(sys.stdin); path=data.get('tool_input',{}).get('file_path',''); sys.exit(2 if any(p in path for p in ['.env', 'package-lock.json', '.git/']) else 0)\"" }],
      },
    ],
    PostToolUse: [
      {
        matcher: 'Edit|MultiEdit|Write',
        hooks: [{ type: 'command', command: "jq -r '.tool_input.file_path' | { read file_path; if echo \"$file_path\" | grep -q '\\.ts$'; then npx prettier --write \"$file_path\"; fi; }" }],
      },
    ],
  },
};

let root: string;
let ws: string;
let home: string;
beforeEach(async () => {
  root = await hookWorkspace();
  ws = path.join(root, 'project');
  home = path.join(root, 'home');
  await fs.mkdir(path.join(ws, '.claude'), { recursive: true });
  await fs.mkdir(path.join(home, '.claude'), { recursive: true });
  await fs.writeFile(path.join(ws, '.claude', 'settings.json'), JSON.stringify(SETTINGS, null, 2));
  // `npx prettier` finds the project's own bin first; this stand-in formats the way the test can see.
  const bin = path.join(ws, 'node_modules', '.bin');
  await fs.mkdir(bin, { recursive: true });
  await fs.writeFile(path.join(bin, 'prettier'), '#!/bin/sh\n[ "$1" = "--write" ] && sed -i "s/  */ /g; s/ *;*$/;/" "$2"\n', { mode: 0o755 });
  await fs.writeFile(path.join(ws, 'package.json'), '{"name":"p","version":"1.0.0"}');
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function session(calls: Parameters<typeof scriptedProvider>[0]) {
  const loaded = await loadHooks({ workspace: ws, cairnHome: path.join(root, 'cairn'), claudeHome: path.join(home, '.claude'), trusted: () => true });
  expect(loaded.problems).toEqual([]);
  const env = { ...process.env, HOME: home };
  const hooks = createHookRunner({ hooks: () => loaded.hooks, cwd: ws, env });
  const provider = scriptedProvider(calls);
  return collect(query({
    messages: [], prompt: userText('go'), provider, tools: [createBashTool(), createWriteFileTool(), createEditFileTool()],
    permissions: await allowEverything(ws), system: () => 's', cwd: ws, signal: new AbortController().signal, hooks,
  }));
}

describe("Claude Code's documented examples, unchanged, from .claude/settings.json", () => {
  it('the Bash command logger writes each command and its description to ~/.claude/bash-command-log.txt', async () => {
    await session([toolCall('b1', 'bash', { command: 'echo hi', description: 'Say hi' }), toolCall('b2', 'bash', { command: 'true' }), assistantText('done')]);
    expect(await fs.readFile(path.join(home, '.claude', 'bash-command-log.txt'), 'utf8')).toBe('echo hi - Say hi\ntrue - No description\n');
  });

  it('the file-protection hook blocks edits to .env, and not to other files', async () => {
    const events = await session([
      toolCall('w1', 'write_file', { path: '.env', content: 'TOKEN=1' }),
      toolCall('w2', 'write_file', { path: 'notes.md', content: 'ok' }),
      assistantText('done'),
    ]);
    await expect(fs.access(path.join(ws, '.env'))).rejects.toThrow();
    expect(ofType(events, 'tool_result').find((r) => r.id === 'w1')).toMatchObject({ is_error: true, content: expect.stringContaining('Blocked by a PreToolUse hook') });
    expect(await fs.readFile(path.join(ws, 'notes.md'), 'utf8')).toBe('ok');
  });

  it('the formatter runs after Edit|Write on a .ts file', async () => {
    await session([toolCall('w1', 'write_file', { path: 'a.ts', content: 'const   x  =  1' }), assistantText('done')]);
    expect(await fs.readFile(path.join(ws, 'a.ts'), 'utf8')).toBe('const x = 1;');
  });
});
