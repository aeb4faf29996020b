import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentDefinitions } from '../../../src/agents/agent-definition-loader.js';

describe('agent definitions', () => {
  it('loads markdown definitions from CAIRN_HOME, .claude/agents and .cairn/agents; bad files are reported by path and field and skipped', async () => {
    const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-agents-')));
    const home = path.join(base, 'home');
    const ws = path.join(base, 'ws');
    const write = async (dir: string, name: string, text: string) => {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(path.join(dir, name), text);
    };
    await write(path.join(home, 'agents'), 'reviewer.md', '---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Glob\nmodel: inherit\n---\nYou review code.\n');
    await write(path.join(ws, '.claude', 'agents'), 'tester.md', '---\nname: tester\ndescription: Runs tests\ntools:\n  - Bash\n  - Read\nmax_turns: 5\n---\nRun the tests.');
    await write(path.join(ws, '.cairn', 'agents'), 'reviewer.md', '---\nname: reviewer\ndescription: Project reviewer\n---\nProject rules.');
    await write(path.join(ws, '.cairn', 'agents'), 'nofront.md', 'just text');
    await write(path.join(ws, '.cairn', 'agents'), 'noname.md', '---\ndescription: missing name\n---\n');
    await write(path.join(ws, '.claude', 'agents'), 'badturns.md', '---\nname: x\ndescription: y\nmax_turns: many\n---\n');
    await write(path.join(ws, '.claude', 'agents'), 'badyaml.md', '---\nname: ok\n- unclosed\n---\n');

    const { agents, problems } = await loadAgentDefinitions(home, ws);
    const byName = Object.fromEntries(agents.map((a) => [a.name, a]));
    expect(Object.keys(byName).sort()).toEqual(['explore', 'general', 'reviewer', 'tester']);
    expect(byName['reviewer']).toMatchObject({ description: 'Project reviewer', prompt: 'Project rules.' });
    expect(byName['tester']).toMatchObject({ tools: ['bash', 'read_file'], maxTurns: 5 });
    const text = problems.map((p) => `${path.basename(p.file)}: ${p.message}`).sort();
    expect(text).toEqual([
      expect.stringMatching(/^badturns\.md: max_turns: /),
      expect.stringMatching(/^badyaml\.md: frontmatter is not valid YAML/),
      expect.stringMatching(/^nofront\.md: no YAML frontmatter/),
      expect.stringMatching(/^noname\.md: name: /),
    ]);
  });
});
