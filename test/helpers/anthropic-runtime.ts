import fs from 'node:fs/promises';
import path from 'node:path';
import { createRuntime, type Runtime } from '../../src/bootstrap.js';
import type { RuntimeOptions } from '../../src/runtime/runtime-options.js';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type Script, type ScriptedServer } from './anthropic-server.js';
import { tempWorkspace } from './run-cairn.js';

export interface AnthropicRuntime {
  runtime: Runtime;
  /** The loopback Anthropic server the runtime talks to; its `requests` are what was sent. */
  server: ScriptedServer<AnthropicRequestBody>;
  /** The workspace. */
  dir: string;
}

const open: { runtime?: Runtime; server: ScriptedServer<AnthropicRequestBody> }[] = [];

/** Closes what anthropicRuntime started (call it in afterEach). */
export async function closeAnthropicRuntimes(): Promise<void> {
  for (const { runtime, server } of open.splice(0)) {
    runtime?.close();
    await server.close();
  }
}

/**
 * A headless runtime on the anthropic provider, talking to a loopback Anthropic server that answers
 * by `script` ("ok" by default), in a temp workspace holding `files` with a user home beside it.
 * `setUp` runs before the runtime starts (to trust the workspace, add files...).
 */
export async function anthropicRuntime(
  options: {
    files?: Record<string, string>;
    script?: Script<AnthropicRequestBody>;
    setUp?: (ws: { dir: string; home: string; userHome: string }) => Promise<void>;
    /** More runtime options (permissionMode, sandbox...). */
    runtime?: Partial<RuntimeOptions>;
    /** More environment variables (CAIRN_CLOCK_SPEED...), beside the home, cairn's home and the server's address. */
    env?: NodeJS.ProcessEnv;
  } = {},
): Promise<AnthropicRuntime> {
  const server = await startAnthropicServer(options.script ?? (() => anthropicReply([{ type: 'text', text: 'ok' }])));
  const entry: (typeof open)[number] = { server };
  open.push(entry);
  const ws = await tempWorkspace(options.files ?? {});
  const userHome = path.join(path.dirname(ws.dir), 'user');
  await fs.mkdir(userHome, { recursive: true });
  await options.setUp?.({ ...ws, userHome });
  entry.runtime = await createRuntime({
    cwd: ws.dir,
    env: { HOME: userHome, CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url, ...options.env },
    interactive: false,
    persist: false,
    provider: 'anthropic',
    ...options.runtime,
  });
  return { runtime: entry.runtime, server, dir: ws.dir };
}
