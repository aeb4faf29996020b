import pty from 'node-pty';
import { describe, expect, it } from 'vitest';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { waitFor } from '../helpers/wait-for.js';

// The offline model answers an unknown prompt with "You said: _<prompt>_", so a prompt carrying
// escapes makes the model's text carry them: a title change and a screen clear.
const EVIL = 'hello \x1b]0;pwned\x07 and \x1b[2J done';

function envFor(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'DEEPSEEK_API_KEY', 'CAIRN_PROVIDER', 'CAIRN_MODEL', 'CI']) delete env[key];
  return { ...env, CAIRN_HOME: home, TERM: 'xterm-256color' };
}

describe('cairn -p text output', () => {
  it('to a terminal: the answer is shown without its control sequences', async () => {
    const ws = await tempWorkspace();
    const term = pty.spawn(process.execPath, [cairnBin, '-p', EVIL], { name: 'xterm-256color', cols: 120, rows: 30, cwd: ws.dir, env: envFor(ws.home) });
    let out = '';
    let code: number | undefined;
    term.onData((d) => (out += d));
    term.onExit((e) => (code = e.exitCode));
    await waitFor(() => code !== undefined, { timeout: 20_000, message: 'cairn -p to exit' });
    expect(code).toBe(0);
    expect(out).toMatch(/You said: _hello\s+and\s+done_/);
    expect(out).not.toContain('\x1b]0;');
    expect(out).not.toContain('\x1b[2J');
    expect(out).not.toContain('\x07');
  });

  it('to a pipe: the answer is exact, escapes included', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', EVIL], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`You said: _${EVIL}_`);
  });
});
