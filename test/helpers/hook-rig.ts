import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseCairnHooks, parseSettingsHooks } from '../../src/hooks/hook-config.js';
import { createHookRunner } from '../../src/hooks/hook-runner.js';
import type { HookDefinition, HookRunner } from '../../src/hooks/hook-types.js';
import { query, type QueryParams } from '../../src/loop/query.js';
import { userText } from '../../src/messages.js';
import { collect } from './collect.js';
import { scriptedProvider } from './scripted-provider.js';

/** A temp workspace (real path) for hook tests. */
export async function hookWorkspace(prefix = 'cairn-hooks-'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

/** Writes an executable script into the workspace and returns its absolute path. */
export async function script(dir: string, name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** A runner over hooks given in Claude Code's settings shape (`{Event: [{matcher, hooks}]}`). */
export function claudeHooks(cwd: string, hooks: unknown, env: NodeJS.ProcessEnv = process.env): { runner: HookRunner; defs: HookDefinition[]; problems: string[] } {
  const parsed = parseSettingsHooks(hooks, path.join(cwd, '.claude', 'settings.json'));
  return { runner: createHookRunner({ hooks: () => parsed.hooks, cwd, env, sessionId: 'test-session' }), defs: parsed.hooks, problems: parsed.problems };
}

/** A runner over hooks given in `.hooks.json`'s shape (`{Event: [{matcher, command, timeout}]}`). */
export function cairnHooks(cwd: string, hooks: unknown, env: NodeJS.ProcessEnv = process.env): { runner: HookRunner; defs: HookDefinition[]; problems: string[] } {
  const parsed = parseCairnHooks(hooks, path.join(cwd, '.hooks.json'));
  return { runner: createHookRunner({ hooks: () => parsed.hooks, cwd, env }), defs: parsed.hooks, problems: parsed.problems };
}

export const command = (cmd: string, timeout?: number) => ({ type: 'command', command: cmd, ...(timeout !== undefined ? { timeout } : {}) });

/**
 * One turn of the real loop with these hooks: the scripted model's replies, and the tools,
 * permissions and folder given (the prompt "go" unless `setup` names one).
 */
export function hookedTurn(hooks: HookRunner, replies: Parameters<typeof scriptedProvider>[0], setup: Pick<QueryParams, 'tools' | 'permissions' | 'cwd'> & Partial<QueryParams>) {
  const provider = scriptedProvider(replies);
  const events = collect(query({ messages: [], prompt: userText('go'), provider, system: () => 'system', signal: new AbortController().signal, hooks, ...setup }));
  return { provider, events };
}
