// A model alias in settings (Claude Code's `"model": "opus"`) reaches the provider as that tier's model id,
// checked on the wire: the request body a loopback Anthropic server receives.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const runtimes: Runtime[] = [];
const servers: ScriptedServer<AnthropicRequestBody>[] = [];
let server: ScriptedServer<AnthropicRequestBody> | undefined;
afterEach(async () => {
  for (const r of runtimes.splice(0)) r.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  server = undefined;
});

async function start(settings: Record<string, unknown>, extra: { model?: string; env?: Record<string, string> } = {}): Promise<Runtime> {
  server = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'ok' }]));
  servers.push(server);
  const ws = await tempWorkspace({ '.claude/settings.json': JSON.stringify(settings) });
  const userHome = path.join(path.dirname(ws.dir), 'user');
  await fs.mkdir(userHome, { recursive: true });
  const runtime = await createRuntime({
    cwd: ws.dir,
    env: { HOME: userHome, CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url, ...extra.env },
    interactive: false,
    persist: false,
    provider: 'anthropic',
    ...(extra.model ? { model: extra.model } : {}),
  });
  runtimes.push(runtime);
  return runtime;
}

const sentModels = (): string[] => (server?.requests ?? []).map((r) => r.body.model);

describe('a model alias as the session model', () => {
  it('"model": "opus" in .claude/settings.json is sent as the Anthropic opus model, not as "opus"', async () => {
    const runtime = await start({ model: 'opus' });
    expect(runtime.session.model).toBe('claude-opus-5-5');
    await runtime.session.run('hello');
    expect(sentModels()).toEqual(['claude-opus-5-5']);
  });

  it('--model haiku and CAIRN_MODEL=Sonnet are aliases too', async () => {
    const flagged = await start({}, { model: 'haiku' });
    await flagged.session.run('hello');
    expect(sentModels()).toEqual(['claude-haiku-5-5']);
    const fromEnv = await start({}, { env: { CAIRN_MODEL: 'Sonnet' } });
    await fromEnv.session.run('hello');
    expect(sentModels()).toEqual(['claude-sonnet-5-5']);
  });

  it('/model haiku switches to the haiku model id', async () => {
    const runtime = await start({});
    expect(runtime.session.switchModel('haiku')).toBe(true);
    await runtime.session.run('hello');
    expect(sentModels()).toEqual(['claude-haiku-5-5']);
  });

  it('a full model id is sent as written', async () => {
    const runtime = await start({ model: 'claude-opus-4-1-20250805' });
    await runtime.session.run('hello');
    expect(sentModels()).toEqual(['claude-opus-4-1-20250805']);
  });
});
