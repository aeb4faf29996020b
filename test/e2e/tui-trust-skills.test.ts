import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cairnBin, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// The trust question in the built cairn, in a real terminal, for a folder whose only widening is a
// project skill and a command that carry allowed-tools.
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});

describe.skipIf(!TmuxTerminal.available())('the trust question and project skills', () => {
  it('names the skill and the command with what they would run unasked; a no opens the app', async () => {
    const ws = await tempWorkspace({
      '.claude/skills/deploy/SKILL.md': '---\nname: deploy\ndescription: Deploys\nallowed-tools: Bash(./deploy.sh *)\n---\nRun ./deploy.sh.\n',
      '.claude/commands/ship.md': '---\nallowed-tools: Bash(git push:*)\n---\nShip it.\n',
    });
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, CLAUDE_CONFIG_DIR: join(ws.home, 'claude') } });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin}`);
    term.keys('Enter');
    const screen = (await term.waitForText('Trust this folder? [y/N]')).replace(/\s+/g, ' ');
    expect(screen).toContain('the skill deploy would run Bash(./deploy.sh *) without asking while it is in use');
    expect(screen).toContain('the command /ship would run Bash(git push:*) without asking while it is in use');
    term.keys('Enter');
    await term.waitForText('Ask cairn');
  });
});
