import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

const { start } = cairnTerminals();

// A hook in cairn's user settings file (no folder trust needed), in Claude Code's format.
const SETTINGS = JSON.stringify({
  hooks: { PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'echo "writes are frozen until Friday" >&2; exit 2' }] }] },
});

describe.skipIf(!TmuxTerminal.available())('hooks in the terminal', () => {
  it('a PreToolUse hook blocks a write: the reason shows under its card, the file is not written, /hooks lists the hook with its file', async () => {
    const { term, ws } = await start({ args: '--permission-mode acceptEdits', homeFiles: { 'settings.json': SETTINGS } });
    term.type('write hello to notes.txt');
    term.keys('Enter');
    const screen = await term.waitForText('writes are frozen until Friday');
    const lines = screen.split('\n');
    const card = lines.findIndex((l) => l.includes('write_file'));
    const note = lines.findIndex((l) => l.includes('PreToolUse hook blocked: writes are frozen until Friday'));
    expect(card).toBeGreaterThanOrEqual(0);
    expect(note).toBeGreaterThan(card);
    expect(existsSync(join(ws.dir, 'notes.txt'))).toBe(false);

    term.type('/hooks');
    term.keys('Enter');
    await term.waitForText('Hooks: 1, on');
    expect(term.screen()).toContain(`${join(ws.home, 'settings.json')} hooks.PreToolUse[0].hooks[0]`);
  });
});
