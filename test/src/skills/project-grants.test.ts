// The trust question names a project's skills and commands that carry allowed-tools: trusting the
// folder is what lets them run those tools without asking.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceSettings, type TrustQuestion } from '../../../src/runtime/workspace-settings.js';

let root: string;
let ws: string;
let claudeDir: string;

const put = async (file: string, text: string): Promise<void> => {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
};
const skill = (name: string, extra = '') => `---\nname: ${name}\ndescription: The ${name} skill\n${extra}---\nDo ${name}.\n`;

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'cairn-project-grants-')));
  ws = join(root, 'ws');
  claudeDir = join(root, 'claude');
  await mkdir(ws, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function ask(): Promise<TrustQuestion[]> {
  const asked: TrustQuestion[] = [];
  await workspaceSettings({ cwd: ws, cairnHome: join(root, 'cairn-home'), env: { CLAUDE_CONFIG_DIR: claudeDir }, notices: [], askTrust: async (q) => (asked.push(q), false) });
  return asked;
}

describe('the trust question and a project\'s skills and commands', () => {
  it('names each project skill and command with allowed-tools, its file and what it would run unasked', async () => {
    await put(join(ws, '.claude', 'skills', 'deploy', 'SKILL.md'), skill('deploy', 'allowed-tools: Bash(./deploy.sh *), Read\n'));
    await put(join(ws, '.cairn', 'skills', 'lint', 'SKILL.md'), skill('lint', 'allowed-tools: Bash(npm run lint)\n'));
    await put(join(ws, '.claude', 'commands', 'git', 'push.md'), '---\ndescription: Push\nallowed-tools: Bash(git push:*)\n---\nPush it.\n');
    const [q] = await ask();
    expect(q?.wouldApply).toEqual([
      `${join(ws, '.claude', 'skills', 'deploy', 'SKILL.md')}: the skill deploy would run Bash(./deploy.sh *), Read without asking while it is in use`,
      `${join(ws, '.cairn', 'skills', 'lint', 'SKILL.md')}: the skill lint would run Bash(npm run lint) without asking while it is in use`,
      `${join(ws, '.claude', 'commands', 'git', 'push.md')}: the command /git:push would run Bash(git push:*) without asking while it is in use`,
    ]);
  });

  it('a project skill or command without allowed-tools widens nothing: no question', async () => {
    await put(join(ws, '.claude', 'skills', 'notes', 'SKILL.md'), skill('notes'));
    await put(join(ws, '.claude', 'commands', 'hello.md'), 'Say hello.\n');
    expect(await ask()).toEqual([]);
  });

  it("the user's own skills are not the folder's to grant: not named", async () => {
    await put(join(claudeDir, 'skills', 'mine', 'SKILL.md'), skill('mine', 'allowed-tools: Bash\n'));
    expect(await ask()).toEqual([]);
  });
});
