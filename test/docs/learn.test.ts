import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createOfflineProvider } from '../../src/providers/offline.js';
import { sampleWorkspace, SAMPLE_FILES, type StepIo } from '../../docs/learn/learn-kit.js';
import { main as oneCall } from '../../docs/learn/01-one-call.js';
import { main as streaming } from '../../docs/learn/02-streaming.js';
import { main as history } from '../../docs/learn/03-history.js';
import { main as systemPrompt } from '../../docs/learn/04-system-prompt.js';
import { main as toolLoop } from '../../docs/learn/05-tool-loop.js';
import { main as skills } from '../../docs/learn/06-skills.js';
import { main as todos } from '../../docs/learn/07-todo-planning.js';
import { main as subagents } from '../../docs/learn/08-subagents.js';
import { main as permissions } from '../../docs/learn/09-permissions.js';
import { main as tuiStore } from '../../docs/learn/10-tui-store.js';

// Every docs/learn step runs here on the offline model (as on a fresh clone with no key), and what
// it prints is what its page says it prints.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function io(): StepIo & { out: () => string } {
  let text = '';
  return { write: (t) => { text += t; }, model: createOfflineProvider(), out: () => text };
}
function workspace(files?: Record<string, string>): string {
  const dir = sampleWorkspace(files);
  dirs.push(dir);
  return dir;
}

describe('docs/learn', () => {
  it('1: one call returns the whole assistant message', async () => {
    const step = io();
    const message = await oneCall(step);
    expect(message.role).toBe('assistant');
    expect(step.out()).toMatch(/^offline\/offline-scripted-1 answered \(stop: end_turn\):\nI am cairn's \*\*offline model\*\*/);
    expect(step.out()).toContain('You said: _Say hello in five words._');
  });

  it('2: streaming prints the text piece by piece, then the usage', async () => {
    const step = io();
    const deltas = await streaming(step);
    expect(deltas).toBeGreaterThan(10);
    expect(step.out()).toMatch(/\[usage: \d+ in, \d+ out\]\n\[\d+ text deltas\]\n$/);
  });

  it('3: the second call carries the first exchange', async () => {
    const step = io();
    const messages = await history(step);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(step.out()).toContain('> My name is Ada.   (sending 1 message)');
    expect(step.out()).toContain('> What is my name?   (sending 3 messages)');
  });

  it('4: the system prompt carries the working directory and the project\'s AGENTS.md', async () => {
    const dir = workspace();
    const system = await systemPrompt(io(), dir);
    expect(system).toContain(`Working directory: ${dir}`);
    expect(system).toContain('Instructions from AGENTS.md:\nThis project is a shopping list.');
  });

  it('5: the loop runs the tools the model asks for and answers from their results', async () => {
    const step = io();
    const answer = await toolLoop(step, workspace());
    expect(step.out()).toContain('-> list_dir {"path":"."}\n<- AGENTS.md\n');
    expect(step.out()).toContain('-> read_file {"path":"notes.txt"}\n<-      1\tBuy milk\n');
    expect(answer).toBe('Done.\n\n- Listed `.`: 4 entries.\n- Read `notes.txt`: 2 lines.');
  });

  it('6: a skill is listed by description and its body loaded on demand', async () => {
    const step = io();
    const haiku = '---\nname: haiku\ndescription: Turns a text file into a haiku.\n---\nThree lines: 5, 7, 5.\n';
    const answer = await skills(step, workspace({ ...SAMPLE_FILES, 'skills/haiku/SKILL.md': haiku }));
    expect(step.out()).toContain('- haiku: Turns a text file into a haiku.');
    expect(step.out()).not.toMatch(/Skills[^>]*Three lines/);
    expect(step.out()).toContain('-> load_skill {"name":"haiku"}\n<- Three lines: 5, 7, 5.');
    expect(answer).toContain('Read `notes.txt`: 2 lines.');
  });

  it('7: the todo list goes from all open to all done, one item in progress at a time', async () => {
    const step = io();
    const list = await todos(step, workspace());
    expect(list.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);
    expect(step.out()).toContain('   [x] Read the notes\n   [>] Sort them\n   [ ] Write the summary\n');
    expect(step.out()).toMatch(/All three steps are done\.\n$/);
  });

  it('8: two subagents read in parallel and the parent gets only their reports', async () => {
    const step = io();
    const answer = await subagents(step, workspace());
    expect(step.out()).toContain('   [read a.txt] -> read_file {"path":"a.txt"}');
    expect(step.out()).toContain('   [read b.txt] -> read_file {"path":"b.txt"}');
    expect(answer).toContain('The explore subagent (read a.txt) reported: Done. - Read `a.txt`: 1 line.');
    expect(answer).not.toContain('alpha');
  });

  it('9: a command is asked about and a "no" reaches the model; the real checker decides the table', async () => {
    const step = io();
    const dir = workspace();
    fs.mkdirSync(`${dir}/build`);
    const asked = await permissions(step, dir);
    expect(asked).toEqual(['bash {"command":"rm -rf build"}']);
    expect(fs.existsSync(`${dir}/build`)).toBe(true);
    expect(step.out()).toContain('`bash` failed: The user denied bash.');
    expect(step.out()).toContain('   read_file {"path":"notes.txt"}: allow\n   read_file {"path":".env"}: deny\n   read_file {"path":"/etc/hostname"}: ask\n');
    expect(step.out()).toContain('   bash {"command":"git status"}: allow\n   bash {"command":"git status; rm -rf ~"}: deny\n   bash {"command":"cat .env"}: deny\n');
  });

  it('10: the real loop\'s events fold into a state the screen is drawn from', async () => {
    const step = io();
    const frame = await tuiStore(step, workspace());
    expect(frame[0]).toBe('> list . then read notes.txt');
    expect(frame).toContain('  ✓ list_dir .  4 lines');
    expect(frame).toContain('  ✓ read_file notes.txt  2 lines');
    expect(frame.at(-1)).toBe('  (ready)');
  });
});
