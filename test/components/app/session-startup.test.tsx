import { afterEach, describe, expect, it } from 'vitest';
import { runTui } from '../../../components/app/run-tui.js';
import { OFFLINE_NOTICE } from '../../../components/app/session-startup.js';
import { formatContext } from '../../../components/transcript/format-tokens.js';
import { stripAnsi } from '../../../components/theme/ansi.js';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';
import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { projectDir } from '../../../src/session/session-paths.js';
import { SessionWriter } from '../../../src/session/session-writer.js';
import { exchangeEvents } from '../../bench/session-bench.js';
import { waitFor } from '../../helpers/wait-for.js';
import { FakeStdin, FakeStdout } from '../../helpers/fake-tty.js';
import { createVirtualTerminal } from '../terminal/xterm-harness.js';

const runtimes: Runtime[] = [];
afterEach(() => {
  for (const r of runtimes.splice(0)) r.close();
});

async function runtimeFor(ws: { dir: string; home: string }, extra: { continueLatest?: boolean; interactive?: boolean } = {}): Promise<Runtime> {
  const runtime = await createRuntime({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, CAIRN_OFFLINE_DELAY_MS: '0' }, interactive: extra.interactive ?? false, ...(extra.continueLatest ? { continueLatest: true } : {}) });
  runtimes.push(runtime);
  return runtime;
}

/** One headless exchange written to a session file, as `cairn -p` leaves it. */
async function earlierSession(ws: { dir: string; home: string }, prompt: string): Promise<string> {
  const runtime = await runtimeFor(ws);
  await runtime.session.run(prompt);
  runtime.close();
  return runtime.sessionId;
}

async function open(runtime: Runtime, switched: string[] = []) {
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  const vt = createVirtualTerminal(stdout.columns, stdout.rows);
  const done = runTui({
    session: runtime.session,
    cwd: runtime.cwd,
    cairnHome: runtime.cairnHome,
    systemPrompt: runtime.systemPrompt,
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new FakeStdout() as unknown as NodeJS.WriteStream,
    env: {},
    handleProcessEvents: false,
    sessions: {
      sessionId: runtime.sessionId,
      contextWindow: runtime.contextWindow,
      startupNotices: runtime.startupNotices,
      ...(runtime.resumed ? { resumedEvents: runtime.resumed.events } : {}),
      sections: runtime.systemPromptSections,
      onSwitch: (id) => switched.push(id),
    },
  });
  let written = 0;
  const screen = async (): Promise<string> => {
    const chunks = stdout.chunks.slice(written);
    written += chunks.length;
    for (const c of chunks) await vt.write(c);
    return vt.lines().join('\n');
  };
  const waitScreen = async (predicate: (s: string) => boolean, what: string): Promise<string> => {
    let last = '';
    try {
      await waitFor(async () => predicate((last = await screen())));
    } catch {
      throw new Error(`timed out waiting for ${what}; the screen was:\n${last}`);
    }
    return last;
  };
  const type = (text: string): void => {
    for (const ch of text) stdin.write(ch);
  };
  return { stdin, stdout, done, screen, waitScreen, type };
}

describe('resuming a long session', () => {
  it('lays out only the last items at first, then earlier ones as the view reaches the top, keeping the view still', async () => {
    const ws = await tempWorkspace({});
    const dir = projectDir(ws.home, await realpath(ws.dir));
    await mkdir(dir, { recursive: true });
    // 2,000 messages: far more items than one window.
    const id = 'long-session';
    const w = SessionWriter.create(join(dir, `${id}.jsonl`), { id, cwd: ws.dir, created: new Date().toISOString() });
    for (let i = 0; i < 500; i++) for (const e of exchangeEvents(i)) w.append(e);
    w.close();
    const runtime = await createRuntime({ cwd: ws.dir, env: { CAIRN_HOME: ws.home }, interactive: true, resumeId: id });
    runtimes.push(runtime);
    const t = await open(runtime);
    let s = await t.waitScreen((s) => s.includes('Ask cairn') && s.includes('File 499 has 2 lines'), 'the last exchange');
    t.type('\x1b[H'); // Home: the top of what is laid out
    s = await t.waitScreen((s) => /earlier items above/.test(s) || /prompt \d+: read file/.test(s), 'the top of the window');
    // The first exchanges are not laid out yet; Home again walks back a window at a time.
    expect(s).not.toContain('prompt 0: read file 0');
    let presses = 1;
    for (let i = 0; i < 10 && !s.includes('prompt 0: read file 0'); i++) {
      t.type('\x1b[H');
      presses++;
      s = await t.waitScreen((x) => x !== s, 'an earlier window');
    }
    expect(s).toContain('prompt 0: read file 0');
    expect(presses).toBeGreaterThan(2);
    expect(s).not.toMatch(/earlier items above/);
    t.stdin.write('\x04');
    expect(await t.done).toBe(0);
  });
});

describe('resuming a 10,000-message session', () => {
  it('by an 8-character prefix: the next request carries all 10,000 messages, and Home walks back to the very first item', { timeout: 60_000 }, async () => {
    const ws = await tempWorkspace({});
    const dir = projectDir(ws.home, await realpath(ws.dir));
    await mkdir(dir, { recursive: true });
    const id = 'f00dcafe-10k-session';
    const w = SessionWriter.create(join(dir, `${id}.jsonl`), { id, cwd: ws.dir, created: new Date().toISOString() });
    for (let i = 0; i < 2500; i++) for (const e of exchangeEvents(i)) w.append(e);
    w.close();
    const runtime = await createRuntime({ cwd: ws.dir, env: { CAIRN_HOME: ws.home, CAIRN_OFFLINE_DELAY_MS: '0' }, interactive: true, resumeId: id.slice(0, 8), deferStartup: true });
    runtimes.push(runtime);
    expect(runtime.sessionId).toBe(id);
    const t = await open(runtime);
    await t.waitScreen((s) => s.includes('Ask cairn') && s.includes('File 2499 has 2 lines'), 'the last exchange');
    t.type('one more');
    t.stdin.write('\r');
    await waitFor(() => runtime.session.messages.length === 10_002);
    const [first] = runtime.session.messages;
    expect(first?.role === 'user' && first.content[0]?.type === 'text' ? first.content[0].text : '').toBe('prompt 0: read file 0');
    let s = await t.screen();
    for (let i = 0; i < 60 && !s.includes('prompt 0: read file 0'); i++) {
      t.type('\x1b[H'); // Home: the top of what is laid out, then the window before it
      s = await t.waitScreen((x) => x !== s, 'an earlier window');
    }
    expect(s).toContain('prompt 0: read file 0');
    expect(s).not.toMatch(/earlier items above/);
    t.stdin.write('\x04');
    expect(await t.done).toBe(0);
  });
});

describe('resuming in the TUI', () => {
  it('cairn -c shows the earlier prompt and tool card in the very first frame, without a bell', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\ntwo\nthree\n' });
    await earlierSession(ws, 'read a.txt');
    const runtime = await runtimeFor(ws, { continueLatest: true, interactive: true });
    expect(runtime.resumed).toBeDefined();
    const t = await open(runtime);
    await waitFor(() => stripAnsi(t.stdout.out).includes('Ask cairn'));
    // Everything written up to the first complete frame already holds the old transcript.
    const first = t.stdout.chunks.findIndex((_, i) => stripAnsi(t.stdout.chunks.slice(0, i + 1).join('')).includes('Ask cairn'));
    const firstFrame = stripAnsi(t.stdout.chunks.slice(0, first + 1).join(''));
    expect(firstFrame).toContain('read a.txt');
    expect(firstFrame).toContain('read_file');
    const s = await t.waitScreen((s) => s.includes('Resumed session'), 'the resumed transcript');
    expect(s).toMatch(/› read a\.txt/);
    expect(s).toMatch(/✓ read_file a\.txt/);
    expect(s).toContain(`Resumed session ${runtime.sessionId.slice(0, 8)}`);
    expect(s.replace(/\s+/g, ' ')).toContain(OFFLINE_NOTICE);
    expect(t.stdout.out).not.toContain('\x07');
    // The conversation goes on from there: the model sees the earlier messages.
    expect(runtime.session.messages.length).toBeGreaterThan(2);
    t.stdin.write('\x04');
    expect(await t.done).toBe(0);
  });

  it('/context names each section and the window; the status bar uses the same window', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\n', 'AGENTS.md': '# House rules\nuse tabs\n' });
    const runtime = await runtimeFor(ws, { interactive: true });
    const t = await open(runtime);
    await t.waitScreen((s) => s.includes('Ask cairn'), 'the first frame');
    t.type('/context');
    t.stdin.write('\r');
    const s = await t.waitScreen((s) => s.includes('free.'), '/context');
    const window = formatContext(runtime.contextWindow);
    expect(s).toContain(`Context window: ${window} tokens`);
    for (const name of ['system: static', 'system: environment', 'memory: AGENTS.md', 'tools (', 'messages (0)', 'total']) expect(s).toContain(name);
    expect(s).toMatch(/tools \(\d+\)\s+▰+▱*\s+\d[\d.]*k?\s+\d/);
    expect(s).toContain(`/${window}`);
    t.stdin.write('\x04');
    expect(await t.done).toBe(0);
  });

  it('/resume picks an earlier session: runTui ends and reports the id to switch to', async () => {
    const ws = await tempWorkspace({ 'a.txt': 'one\n' });
    const earlier = await earlierSession(ws, 'read a.txt');
    const runtime = await runtimeFor(ws, { interactive: true });
    const switched: string[] = [];
    const t = await open(runtime, switched);
    await t.waitScreen((s) => s.includes('Ask cairn'), 'the first frame');
    t.type('/resume');
    t.stdin.write('\r');
    await t.waitScreen((s) => s.includes('Resume a session') && s.includes('read a.txt'), 'the picker');
    t.stdin.write('\r');
    expect(await t.done).toBe(0);
    expect(switched).toEqual([earlier]);
  });
});
