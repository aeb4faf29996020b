import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnBin } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// /plugin in the built cairn, in a real terminal (tmux): browse the marketplace's plugins, install
// and enable one with Enter, and its command is in the / palette at once.
const { start } = cairnTerminals();
const MARKET = resolve('test/fixtures/plugins/team-market');

describe.skipIf(!TmuxTerminal.available())('/plugin in a real terminal', () => {
  it('lists the marketplace with what each plugin holds; Enter installs and enables; the command joins the palette', async () => {
    const { term } = await start({
      columns: 150,
      rows: 40,
      env: { CLAUDE_CONFIG_DIR: '/nonexistent/cairn-test-claude-home' },
      prepare: (ws) => void execFileSync(process.execPath, [cairnBin, 'plugin', 'marketplace', 'add', MARKET], { cwd: ws.dir, env: { ...process.env, CAIRN_HOME: ws.home, HOME: ws.home } }),
    });
    term.type('/plugin');
    await term.waitForScreen((s) => /› \/plugin\b/.test(s), 'the palette entry');
    term.keys('Enter');
    const list = await term.waitForText('[available] fmt@team-tools 1.2.0');
    expect(list).toContain('[available] dbtools@team-tools');
    term.keys('Enter');
    const enabled = await term.waitForText('Installed and enabled fmt@team-tools 1.2.0.');
    expect(enabled).toMatch(/› \[enabled \] fmt@team-tools 1\.2\.0/);
    expect(enabled).toContain('1 command (/fmt:greet); 1 skill (/fmt:style-guide); 1 agent (fmt:reviewer); 1 hook event (PreToolUse)');
    term.keys('Escape');
    await term.waitForScreen((s) => !s.includes('Installed and enabled'), 'the list closed');
    term.type('/fmt:');
    await term.waitForScreen((s) => /\/fmt:greet <name> +\(user command\) Greet someone by name/.test(s), 'the plugin command in the palette');
  }, 120_000);
});
