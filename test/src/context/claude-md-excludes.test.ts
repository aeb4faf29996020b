import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';
import { readSettingsLayers } from '../../../src/settings/settings-layers.js';
import { unknownKeyNotices } from '../../../src/runtime/workspace-settings.js';

async function monorepo() {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-mdexcl-')));
  const ws = path.join(base, 'repo');
  const claudeHome = path.join(base, 'user', '.claude');
  const cairnHome = path.join(base, 'cairn');
  const write = async (file: string, text: string) => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
  };
  await write(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  await write(path.join(ws, 'CLAUDE.md'), 'ROOT-KEPT.');
  await write(path.join(ws, 'CLAUDE.local.md'), 'LOCAL-EXCLUDED.');
  await write(path.join(ws, 'other-team', 'CLAUDE.md'), 'OTHER-TEAM-EXCLUDED.');
  await write(path.join(ws, 'other-team', 'x.ts'), '');
  await write(path.join(ws, 'mine', 'CLAUDE.md'), 'MINE-KEPT.');
  await write(path.join(ws, 'mine', 'y.ts'), '');
  await write(path.join(ws, '.claude', 'settings.json'), JSON.stringify({ claudeMdExcludes: ['**/other-team/**'] }));
  await write(path.join(ws, '.claude', 'settings.local.json'), JSON.stringify({ claudeMdExcludes: [path.join(ws, 'CLAUDE.local.md')] }));
  await write(path.join(claudeHome, 'settings.json'), JSON.stringify({ claudeMdExcludes: 42 }));
  const problems: string[] = [];
  const source = createSystemPromptSource({ cwd: ws, cairnHome, claudeHome, home: base, now: () => new Date(0), toolNames: () => [], onProblem: (m) => problems.push(m) });
  return { ws, claudeHome, cairnHome, source, problems };
}

describe('claudeMdExcludes', () => {
  it('files whose absolute path a pattern of any settings file matches are left out, at start and in subfolders', async () => {
    const m = await monorepo();
    const { text } = await m.source.build({ mode: 'default', model: 'm' });
    expect(text).toContain('ROOT-KEPT.');
    expect(text).not.toContain('LOCAL-EXCLUDED.');
    expect(await m.source.forPaths([path.join(m.ws, 'other-team', 'x.ts')], 'read other-team/x.ts')).toBeUndefined();
    expect(await m.source.forPaths([path.join(m.ws, 'mine', 'y.ts')], 'read mine/y.ts')).toContain('MINE-KEPT.');
    expect((await m.source.loadedFiles()).map((f) => path.relative(m.ws, f.path))).toEqual(['CLAUDE.md', path.join('mine', 'CLAUDE.md')]);
  });

  it('a value that is not a list of patterns is named with its file and key; the key is not reported as unsupported', async () => {
    const m = await monorepo();
    await m.source.build({ mode: 'default', model: 'm' });
    expect(m.problems).toEqual([`${path.join(m.claudeHome, 'settings.json')}: "claudeMdExcludes" must be a list of glob patterns on absolute paths; it is ignored`]);
    const { layers } = await readSettingsLayers({ workspace: m.ws, cairnHome: m.cairnHome, claudeHome: m.claudeHome });
    expect(unknownKeyNotices(layers)).toEqual([]);
  });
});
