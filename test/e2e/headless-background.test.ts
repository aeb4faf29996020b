import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { alive } from '../helpers/processes.js';
import { cairnBin, runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

// What bash leaves running must not outlive `cairn -p`: a run_in_background shell, a process that
// left the shell's group for a session of its own (setsid), and one disowned in the same group.

/** Live processes running `sleep <seconds>`, found by their command line. */
function sleeping(seconds: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8');
    } catch {
      continue; // gone while we looked
    }
    if (cmdline === `sleep\0${seconds}\0` && alive(Number(name))) pids.push(Number(name));
  }
  return pids;
}

// A duration no other test uses, so the processes found are this run's.
const unique = () => `${300 + Math.floor(Math.random() * 600)}.${process.pid}${Math.floor(Math.random() * 1e6)}`;
const started: string[] = [];
const terminals: TmuxTerminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
  for (const pid of started.splice(0).flatMap(sleeping)) process.kill(pid, 'SIGKILL');
});

/**
 * Runs the prompts (one turn each, on stdin as stream-json), the last of which waits until the
 * process writes `started`: a process that never started cannot pass for one that was ended.
 */
async function runAndCheck(flag: string, prompts: (seconds: string, witness: string) => string[]): Promise<{ seconds: string; stderr: string }> {
  const seconds = unique();
  started.push(seconds);
  const ws = await tempWorkspace();
  const witness = `${ws.dir}/started`;
  const stdin = prompts(seconds, witness).map((content) => `${JSON.stringify({ type: 'user', message: { role: 'user', content } })}\n`).join('');
  const run = await runCairn(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--allowed-tools', 'Bash', flag], { cwd: ws.dir, home: ws.home, stdin });
  expect(run.code, run.stderr).toBe(0);
  expect(run.events.filter((e) => e.type === 'tool_result' && e.is_error)).toEqual([]);
  expect(readFileSync(witness, 'utf8')).toBe('up\n');
  return { seconds, stderr: run.stderr };
}

/** A process that says it is up, then becomes `sleep <seconds>`. */
const sleeper = (seconds: string, witness: string) => `sh -c 'echo up > ${witness}; exec sleep ${seconds}'`;
/** The foreground command waits until the witness exists. */
const awaitWitness = (witness: string) => `while [ ! -s ${witness} ]; do sleep 0.05; done; echo started`;

// Inside the sandbox a command's processes die with its PID namespace; outside it only cairn ends them.
describe.each(['--no-sandbox', '--sandbox'])('processes bash started end with cairn -p (%s)', (flag) => {
  const gone = (seconds: string) => waitFor(() => sleeping(seconds).length === 0, { timeout: 5000, message: `sleep ${seconds} outlived cairn -p ${flag}` });

  it('a run_in_background shell is ended when the run ends, and the run says so', async () => {
    const { seconds, stderr } = await runAndCheck(flag, (s, w) => [`run in the background ${sleeper(s, w)}`, `run ${awaitWitness(w)}`]);
    await gone(seconds);
    expect(stderr).toMatch(/cairn: ended \d+ process(es)? that bash commands left running/);
  });

  it('a process that left for its own session (setsid nohup ... &) is ended too', async () => {
    const { seconds } = await runAndCheck(flag, (s, w) => [`run setsid nohup ${sleeper(s, w)} >/dev/null 2>&1 & ${awaitWitness(w)}`]);
    await gone(seconds);
  });

  it("a disowned process in the shell's own group (nohup ... & disown) is ended too", async () => {
    const { seconds } = await runAndCheck(flag, (s, w) => [`run nohup ${sleeper(s, w)} >/dev/null 2>&1 & disown; ${awaitWitness(w)}`]);
    await gone(seconds);
  });
});

describe.skipIf(!TmuxTerminal.available())('processes bash started end when the TUI exits', () => {
  it('a background shell and a setsid escape are gone after /exit', async () => {
    const [bg, escaped] = [unique(), unique()];
    started.push(bg, escaped);
    const ws = await tempWorkspace();
    const [w1, w2] = [`${ws.dir}/bg-up`, `${ws.dir}/escaped-up`];
    const term = TmuxTerminal.start({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, columns: 100, rows: 30 });
    terminals.push(term);
    await term.waitForText('shell$');
    term.type(`node ${cairnBin} --permission-mode bypassPermissions --no-sandbox`);
    term.keys('Enter');
    await term.waitForText('Ask cairn');
    term.type(`run in the background ${sleeper(bg, w1)}`);
    term.keys('Enter');
    await term.waitForText('Started background shell');
    term.type(`run setsid nohup ${sleeper(escaped, w2)} >/dev/null 2>&1 & ${awaitWitness(w2)}; ${awaitWitness(w1)}`);
    term.keys('Enter');
    // The command's two output rows: both processes are up and the call has finished.
    await term.waitForScreen((s) => (s.match(/^[│┃⎿ ]*started\s*$/gm) ?? []).length === 2, 'both processes up');
    expect([sleeping(bg).length, sleeping(escaped).length]).toEqual([1, 1]);
    term.type('/exit');
    term.keys('Enter');
    await term.waitForScreen((s) => /^shell\$\s*$/m.test(s), 'the shell prompt after /exit');
    await waitFor(() => sleeping(bg).length === 0 && sleeping(escaped).length === 0, { timeout: 5000, message: 'a process bash started outlived the TUI' });
  });
});
