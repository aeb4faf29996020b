import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

// SessionEnd hooks on the way out of the built cairn: awaited, so a hook that takes a moment is
// not cut off when the process exits; bounded (1.5 s, Claude Code's budget), so one that hangs
// does not keep the user waiting, and is killed with its children.

const sessionEnd = (command: string) => JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command }] }] } });

const { start } = cairnTerminals();

const running = async (pid: number): Promise<boolean> => {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z/.test(stat);
};

describe('SessionEnd hooks', () => {
  it('headless: a hook that takes 0.5 s has finished, with its stdin read, by the time cairn has exited', async () => {
    const ws = await tempWorkspace();
    const out = path.join(ws.dir, 'end.json');
    await fs.writeFile(path.join(ws.home, 'settings.json'), sessionEnd(`sleep 0.5; cat > "${out}"`));
    const run = await runCairn(['-p', 'hello'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    // No waiting here: the file must already be complete when the process is gone.
    expect(JSON.parse(await fs.readFile(out, 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'other', cwd: ws.dir });
  });

  it('headless: a hook that hangs is stopped after the budget, with its children; cairn exits and says so on stderr', async () => {
    const ws = await tempWorkspace();
    const pidFile = path.join(ws.dir, 'child.pid');
    await fs.writeFile(path.join(ws.home, 'settings.json'), sessionEnd(`sleep 30 & echo $! > "${pidFile}"; wait; touch "${ws.dir}/late"`));
    const started = Date.now();
    const run = await runCairn(['-p', 'hello'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    // Far below the hook's 30 s (and its 60 s timeout): the 1.5 s budget ended it.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(run.stderr).toContain(`SessionEnd hook error: hooks.SessionEnd[0].hooks[0]: still running after the 1.5 s SessionEnd budget, stopped (${path.join(ws.home, 'settings.json')})`);
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    await waitFor(async () => !(await running(pid)), { timeout: 3000, message: `the hook's child ${pid} still runs` });
    await expect(fs.access(path.join(ws.dir, 'late'))).rejects.toThrow();
  });

  it('headless: what a hook prints reaches the terminal without its escape sequences (no clipboard write, no screen clear)', async () => {
    const ws = await tempWorkspace();
    await fs.writeFile(path.join(ws.home, 'settings.json'), sessionEnd(`printf 'boom \\033]52;c;cHduZWQ=\\007\\033[2J\\033]0;title\\007 end' >&2; exit 1`));
    const run = await runCairn(['-p', 'hello'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('boom');
    expect(run.stderr).not.toContain('\x1b');
    expect(run.stderr).not.toContain('\x07');
  });

  it.skipIf(!TmuxTerminal.available())('TUI: /exit runs the hook to its end with reason prompt_input_exit before the shell prompt is back', async () => {
    const { term, ws } = await start({ homeFiles: { 'settings.json': sessionEnd('sleep 0.5; cat > "$CLAUDE_PROJECT_DIR/end.json"') } });
    term.type('/exit');
    term.keys('Enter');
    await term.waitForScreen((s) => s.trimEnd().endsWith('shell$'), 'the shell prompt after cairn exits');
    expect(JSON.parse(await fs.readFile(path.join(ws.dir, 'end.json'), 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
  });
});
