import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMessageBus } from '../../../src/team/message-bus.js';

async function workspace(): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-bus-')));
}

function busIn(cwd: string) {
  const problems: string[] = [];
  const bus = createMessageBus(cwd, () => new Date('2026-11-30T10:00:00Z'), (m) => problems.push(m));
  return { bus, problems, inbox: path.join(bus.dir, 'lead.jsonl'), cursor: path.join(bus.dir, 'lead.read') };
}

describe('message bus', () => {
  it('delivers each message once across restarts', async () => {
    const cwd = await workspace();
    const first = busIn(cwd);
    await first.bus.send('a', 'lead', 'one');
    expect((await first.bus.read('lead')).map((m) => m.text)).toEqual(['one']);
    const second = busIn(cwd);
    await second.bus.send('a', 'lead', 'two');
    expect((await second.bus.read('lead')).map((m) => m.text)).toEqual(['two']);
    expect([...first.problems, ...second.problems]).toEqual([]);
  });

  it('a corrupt cursor is reported naming it and re-delivers nothing; the inbox is kept', async () => {
    const cwd = await workspace();
    const { bus, problems, inbox, cursor } = busIn(cwd);
    await bus.send('a', 'lead', 'old');
    await bus.read('lead');
    await fs.writeFile(cursor, 'garbage');
    await bus.send('a', 'lead', 'new');
    expect(await bus.read('lead')).toEqual([]);
    expect(await bus.read('lead')).toEqual([]);
    expect(problems).toEqual([expect.stringContaining(`Team inbox cursor ${cursor}: expected a count of lines read`)]);
    expect((await fs.readFile(inbox, 'utf8')).trim().split('\n')).toHaveLength(2);
    // Fixed by hand: delivery resumes where it stopped.
    await fs.writeFile(cursor, '1');
    expect((await bus.read('lead')).map((m) => m.text)).toEqual(['new']);
  });

  it('an unreadable cursor (here a directory) is reported, not read as zero', async () => {
    const cwd = await workspace();
    const { bus, problems, cursor } = busIn(cwd);
    await bus.send('a', 'lead', 'old');
    await fs.mkdir(cursor);
    expect(await bus.read('lead')).toEqual([]);
    expect(problems).toEqual([expect.stringContaining(`Team inbox cursor ${cursor}: is a directory`)]);
  });

  it('a message still being written is left for the next read, not skipped', async () => {
    const cwd = await workspace();
    const { bus, inbox } = busIn(cwd);
    await bus.send('a', 'lead', 'first');
    const line = JSON.stringify({ id: 'x', ts: 't', from: 'b', to: 'lead', text: 'second', kind: 'message' });
    await fs.appendFile(inbox, line.slice(0, 10));
    expect((await bus.read('lead')).map((m) => m.text)).toEqual(['first']);
    await fs.appendFile(inbox, `${line.slice(10)}\n`);
    expect((await bus.read('lead')).map((m) => m.text)).toEqual(['second']);
  });

  it('after a torn write, the next message starts its own line and the torn one is reported', async () => {
    const cwd = await workspace();
    const { bus, problems, inbox } = busIn(cwd);
    await bus.send('a', 'lead', 'first');
    await fs.appendFile(inbox, '{"id":"torn","te');
    await bus.send('a', 'lead', 'after the crash');
    expect((await bus.read('lead')).map((m) => m.text)).toEqual(['first', 'after the crash']);
    expect(problems).toEqual([`${inbox}:2: skipped a message that is not valid JSON`]);
  });
});
