import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadProviderConfig } from '../../../src/providers/config.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';

const fifos: string[] = [];
afterEach(() => {
  for (const f of fifos.splice(0)) releaseFifo(f);
});

const home = async () => fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-config-')));

describe('loadProviderConfig', () => {
  it('reads a config.json saved with a UTF-8 BOM', async () => {
    const dir = await home();
    await fs.writeFile(path.join(dir, 'config.json'), `\ufeff${JSON.stringify({ defaultProvider: 'ollama', model: 'qwen3' })}`);
    const config = loadProviderConfig(dir);
    expect(config).toMatchObject({ exists: true, defaultProvider: 'ollama', model: 'qwen3' });
  });

  it('a FIFO at config.json is a ConfigError naming the file, at once (opening it would block)', { timeout: 5000 }, async () => {
    const dir = await home();
    const file = path.join(dir, 'config.json');
    makeFifo(file);
    fifos.push(file);
    expect(() => loadProviderConfig(dir)).toThrow(ConfigError);
    expect(() => loadProviderConfig(dir)).toThrow(`${file}: is a FIFO (named pipe), not a file`);
  });
});
