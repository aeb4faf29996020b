import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const r of runtimes.splice(0)) r.close();
});

async function start(files: Record<string, string>, userFiles: Record<string, string> = {}): Promise<Runtime> {
  const ws = await tempWorkspace(files);
  const userHome = path.join(path.dirname(ws.dir), 'user');
  for (const [rel, text] of Object.entries(userFiles)) {
    await fs.mkdir(path.dirname(path.join(userHome, rel)), { recursive: true });
    await fs.writeFile(path.join(userHome, rel), text);
  }
  const runtime = await createRuntime({ cwd: ws.dir, env: { HOME: userHome, CAIRN_HOME: ws.home }, interactive: false, persist: false });
  runtimes.push(runtime);
  return runtime;
}

describe('agent definitions at start-up', () => {
  it('tool names a definition lists that cairn lacks are told at start, once per definition, naming it and its file', async () => {
    const runtime = await start({
      '.claude/agents/researcher.md': '---\nname: researcher\ndescription: Looks things up\ntools: Read, mcp__github, pied-piper\n---\nResearch.',
      '.claude/agents/fine.md': '---\nname: fine\ndescription: Only tools cairn has\ntools: Read, Grep\n---\nFine.',
      '.claude/agents/nothing.md': '---\nname: nothing\ndescription: No tool it names exists\ntools: mcp__jira\n---\nNothing.',
    });
    const told = runtime.startupNotices.filter((n) => n.startsWith('Agent '));
    const file = (name: string) => path.join(runtime.cwd, '.claude', 'agents', name);
    expect(told).toEqual([
      expect.stringMatching(new RegExp(`^Agent nothing \\(${file('nothing.md')}\\): .*not in cairn yet.*; it has no tools until then$`)),
      expect.stringMatching(new RegExp(`^Agent researcher \\(${file('researcher.md')}\\): .*not in cairn yet \\(granted when it exists\\); pied-piper is no tool cairn or Claude Code has$`)),
    ]);
  });

  it('the runtime keeps the types it loaded, ~/.claude/agents included, and the files it skipped (what /agents shows)', async () => {
    const runtime = await start(
      { '.claude/agents/broken.md': 'no frontmatter at all' },
      { '.claude/agents/mine.md': '---\nname: mine\ndescription: The user’s own agent\ntools: Read\n---\nMine.' },
    );
    expect(runtime.agentTypes!.agents.map((a) => a.name)).toContain('mine');
    expect(runtime.agentTypes!.problems.map((p) => p.file)).toEqual([path.join(runtime.cwd, '.claude', 'agents', 'broken.md')]);
  });
});
