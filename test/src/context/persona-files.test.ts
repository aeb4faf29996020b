import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSystemPromptSource } from '../../../src/context/system-prompt-source.js';

async function tmp(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-persona-')));
}

async function place(files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, text);
  }
}

describe('SOUL.md and USER.md in the system prompt', () => {
  it('each file has its own section: persona before the instructions, the user after long-term memory; empty files add nothing', async () => {
    const ws = await tmp();
    const home = path.join(ws, 'home');
    await place({
      [path.join(home, 'SOUL.md')]: 'You are patient and terse.',
      [path.join(ws, '.cairn', 'SOUL.md')]: 'In this repository you guard the public API.',
      [path.join(home, 'USER.md')]: '- prefers British spelling',
      [path.join(ws, '.cairn', 'USER.md')]: '   \n',
      [path.join(ws, 'AGENTS.md')]: 'Run the linter.',
      [path.join(ws, '.cairn', 'MEMORY.md')]: '- the build uses make',
    });
    const source = createSystemPromptSource({ cwd: ws, cairnHome: home, claudeHome: path.join(ws, 'claude'), toolNames: () => ['memory'], now: () => new Date('2026-12-02T10:00:00Z') });
    const { text, sections } = await source.build({ mode: 'default', model: 'm' });
    expect(sections.map((s) => (path.isAbsolute(s.name) ? path.relative(ws, s.name) : s.name))).toEqual([
      'static', 'environment', 'memory', 'home/SOUL.md', '.cairn/SOUL.md', 'AGENTS.md', '.cairn/MEMORY.md', 'home/USER.md',
    ]);
    const soul = sections.find((s) => s.name === path.join(home, 'SOUL.md'));
    expect(soul?.text).toBe(`# Persona from ${path.join(home, 'SOUL.md')} (SOUL.md: your character, mission and limits)\n\nYou are patient and terse.`);
    expect(sections.find((s) => s.name === path.join(home, 'USER.md'))?.text).toMatch(/^# About the user from .*USER\.md \(USER\.md: their preferences\)\n\n- prefers British spelling$/);
    expect(text.indexOf('You are patient')).toBeLessThan(text.indexOf('guard the public API'));
    expect(text.indexOf('guard the public API')).toBeLessThan(text.indexOf('Run the linter.'));
    expect(text.indexOf('the build uses make')).toBeLessThan(text.indexOf('British spelling'));
    // /memory lists them, with what is in the context.
    const loaded = (await source.loadedFiles()).map((f) => path.relative(ws, f.path));
    expect(loaded).toEqual(['home/SOUL.md', '.cairn/SOUL.md', 'AGENTS.md', '.cairn/MEMORY.md', 'home/USER.md']);
  });

  it("a Read deny rule or claudeMdExcludes keeps a project's SOUL.md out, as it does its CLAUDE.md", async () => {
    const ws = await tmp();
    const home = path.join(ws, 'home');
    await place({ [path.join(ws, '.cairn', 'SOUL.md')]: 'PROJECT-SOUL', [path.join(ws, '.cairn', 'USER.md')]: 'PROJECT-USER' });
    const denied = createSystemPromptSource({
      cwd: ws, cairnHome: home, claudeHome: path.join(ws, 'claude'), toolNames: () => [], now: () => new Date(),
      isReadDenied: async () => (p) => p.endsWith('SOUL.md'),
    });
    const text = (await denied.build({ mode: 'default', model: 'm' })).text;
    expect(text).not.toContain('PROJECT-SOUL');
    expect(text).toContain('PROJECT-USER');
    await place({ [path.join(ws, '.cairn', 'settings.json')]: JSON.stringify({ claudeMdExcludes: ['**/.cairn/USER.md'] }) });
    const excluded = createSystemPromptSource({ cwd: ws, cairnHome: home, claudeHome: path.join(ws, 'claude'), toolNames: () => [], now: () => new Date() });
    const text2 = (await excluded.build({ mode: 'default', model: 'm' })).text;
    expect(text2).toContain('PROJECT-SOUL');
    expect(text2).not.toContain('PROJECT-USER');
  });

  it('the memory section names the episodic folder and never carries the notes themselves', async () => {
    const ws = await tmp();
    await place({ [path.join(ws, '.cairn', 'memory', '2026-12-01.md')]: '## 09:00 UTC: compaction (auto)\n\nUNIQUE-EPISODIC-WORD\n' });
    const source = createSystemPromptSource({ cwd: ws, cairnHome: path.join(ws, 'home'), claudeHome: path.join(ws, 'claude'), toolNames: () => [], now: () => new Date() });
    const { text, sections } = await source.build({ mode: 'default', model: 'm' });
    const memory = sections.find((s) => s.name === 'memory');
    expect(memory?.text).toContain(`${path.join(ws, '.cairn', 'memory')}/YYYY-MM-DD.md`);
    expect(memory?.text).toMatch(/memory tool \(action "search"\)/);
    expect(text).not.toContain('UNIQUE-EPISODIC-WORD');
  });
});
