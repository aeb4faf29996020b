import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTuiSettings } from '../../../components/theme/tui-settings.js';

async function load(json: string) {
  const home = await mkdtemp(join(tmpdir(), 'cairn-tui-'));
  await writeFile(join(home, 'tui.json'), json);
  return loadTuiSettings(home);
}

describe('tui.json inlineImages', () => {
  it('is off unless set to true', async () => {
    expect((await load('{}')).settings.inlineImages).toBe(false);
    expect((await load('{"inlineImages": true}')).settings.inlineImages).toBe(true);
  });

  it('a value that is not true or false is named, and stays off; the other keys still apply', async () => {
    const { settings, problem } = await load('{"inlineImages": "yes", "theme": "light"}');
    expect(settings.inlineImages).toBe(false);
    expect(settings.theme).toBe('light');
    expect(problem).toContain('"inlineImages" must be true or false, got "yes"');
  });
});
