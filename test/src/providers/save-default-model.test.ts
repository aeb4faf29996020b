import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, resolveProvider } from '../../../src/providers/registry.js';
import { saveDefaultModel } from '../../../src/providers/save-default-model.js';

let home: string;
let file: string;
beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-default-model-'));
  file = path.join(home, 'config.json');
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

describe('saveDefaultModel', () => {
  it("writes defaultProvider and model, keeps every other key, and the next start resolves them", async () => {
    const other = { pricing: { mine: { input: 1, output: 2 } }, archiveSessions: false, approvalTimeoutSeconds: { web: 30 }, someoneElses: [1, 2] };
    await fs.writeFile(file, JSON.stringify({ ...other, model: 'claude-sonnet-5-5' }));
    const saved = await saveDefaultModel({ cairnHome: home, provider: 'openai', model: 'gpt-5.4-mini', env: {} });
    expect(saved).toEqual({ file, overriddenBy: [] });
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ ...other, model: 'gpt-5.4-mini', defaultProvider: 'openai' });
    expect(resolveProvider({ flags: {}, env: { OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' }, cairnHome: home })).toMatchObject({ name: 'openai', model: 'gpt-5.4-mini' });
  });

  it('makes the file when there is none, and says what in the environment still wins over it', async () => {
    const saved = await saveDefaultModel({ cairnHome: home, provider: 'anthropic', model: 'claude-opus-5-5', env: { CAIRN_MODEL: 'x', CAIRN_PROVIDER: '' } });
    expect(saved.overriddenBy).toEqual(['CAIRN_MODEL']);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ defaultProvider: 'anthropic', model: 'claude-opus-5-5' });
  });

  it('bad JSON, or not an object: a ConfigError naming the file, and the file is left as it was', async () => {
    for (const text of ['{ "model": "a", ', '[1, 2]']) {
      await fs.writeFile(file, text);
      const error = await saveDefaultModel({ cairnHome: home, provider: 'openai', model: 'gpt-5.4', env: {} }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(file);
      expect((error as Error).message).toContain('not saved');
      expect(await fs.readFile(file, 'utf8')).toBe(text);
    }
  });

  it('a provider the config does not know: refused, the file as it was', async () => {
    await fs.writeFile(file, '{"archiveSessions": false}');
    const error = await saveDefaultModel({ cairnHome: home, provider: 'nowhere', model: 'm', env: {} }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/defaultProvider: unknown provider 'nowhere'/);
    expect(await fs.readFile(file, 'utf8')).toBe('{"archiveSessions": false}');
  });
});
