// Frame cost against session length: a session file of N messages written with the session
// writer, resumed with `cairn --resume <id>`; then keystrokes and scroll steps are timed.
import { randomUUID } from 'node:crypto';
import { generateMarkdown } from '../../../src/providers/offline-markdown.js';
import { sessionFile } from '../../../src/session/session-paths.js';
import { SessionWriter } from '../../../src/session/session-writer.js';
import { createSandbox, PROMPT_VISIBLE, startCairn, type Sandbox } from './cairn-pty.js';
import { sleep } from './pty-app.js';
import { median } from './stats.js';
import { typeAndTime } from './measure-keys.js';

/** Writes a session of `messages` messages (alternating prompts and markdown answers); returns its id and last prompt. */
export function writeSession(sandbox: Sandbox, messages: number): { id: string; lastPrompt: string } {
  const id = randomUUID();
  const writer = SessionWriter.create(sessionFile(sandbox.home, sandbox.workspace, id), { id, cwd: sandbox.workspace, created: new Date().toISOString() });
  let lastPrompt = '';
  for (let i = 0; i < messages / 2; i++) {
    lastPrompt = `question number ${i} about the code`;
    writer.append({ type: 'user_prompt', text: lastPrompt });
    writer.append({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: generateMarkdown(20 + (i % 40), i + 1) }] } });
  }
  writer.close();
  return { id, lastPrompt };
}

export interface SessionRun extends Record<string, number> {
  /** Spawn to the prompt box (and, if the transcript shows history, the last prompt) on screen. */
  openMs: number;
  rssMb: number;
  peakRssMb: number;
  keyMs: number;
  keyBytes: number;
  scrollMs: number;
  scrollBytes: number;
  /** 1 when the resumed conversation is shown in the transcript. */
  historyShown: number;
}

const PAGE_UP = '\x1b[5~';
const PAGE_DOWN = '\x1b[6~';

export async function measureSession(messages: number, frameWriter: boolean): Promise<SessionRun> {
  const sandbox = createSandbox();
  const { id, lastPrompt } = writeSession(sandbox, messages);
  const app = startCairn(sandbox, ['--resume', id], frameWriter);
  try {
    const opened = await app.waitForScreen((s) => s.includes(PROMPT_VISIBLE), 'the prompt box', 60_000);
    let historyShown = 0;
    try {
      await app.waitForScreen((s) => s.includes(lastPrompt), 'the resumed history', 3000);
      historyShown = 1;
    } catch {
      // Measured anyway: the figures then say nothing about a long transcript (reported).
    }
    await app.waitQuiet(500);
    const keys = await typeAndTime(app, 30);
    await app.waitQuiet(300);

    const scrollMs: number[] = [];
    const scrollBytes: number[] = [];
    // Ten messages fit on one screen: nothing can scroll, so the step is not measured there.
    for (let i = 0; i < (messages > 10 ? 10 : 0); i++) {
      const before = app.screen();
      const b0 = app.bytes;
      const t0 = performance.now();
      app.write(i < 5 ? PAGE_UP : PAGE_DOWN);
      // With an empty transcript nothing moves: time out quickly and record it as no frame.
      const at = await app.waitForScreen((s) => s !== before, 'the view to scroll', historyShown ? 10_000 : 500).catch(() => NaN);
      await sleep(60);
      scrollMs.push(at - t0);
      scrollBytes.push(app.bytes - b0);
    }
    await app.waitQuiet(300);
    const stats = app.stats();
    return {
      openMs: opened - app.startedAt,
      rssMb: stats.rssMb,
      peakRssMb: stats.peakRssMb,
      keyMs: median(keys.latenciesMs),
      keyBytes: median(keys.bytesPerKey),
      scrollMs: scrollMs.length ? median(scrollMs) : NaN,
      scrollBytes: scrollBytes.length ? median(scrollBytes) : 0,
      historyShown,
    };
  } finally {
    await app.stop();
    sandbox.dispose();
  }
}
