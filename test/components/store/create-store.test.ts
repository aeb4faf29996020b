import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../../components/store/create-store.js';
import { replayEvents } from '../../../components/store/replay.js';
import { waitFor } from '../../helpers/wait-for.js';

describe('createStore', () => {
  it('batches a burst of deltas into one notify per frame', async () => {
    const store = createStore(undefined, { frameMs: 20 });
    let notified = 0;
    store.subscribe(() => notified++);
    store.enqueue({ type: 'user_prompt', text: 'go' });
    for (let i = 0; i < 200; i++) store.enqueue({ type: 'text_delta', text: 'x' });
    expect(notified).toBe(0);
    await waitFor(() => notified > 0);
    expect(notified).toBe(1);
    const item = store.getSnapshot().items[1];
    expect(item?.kind === 'assistant' && item.text.length).toBe(200);
    store.dispose();
  });

  it('flushNow applies waiting events, and a UI action applies them first', () => {
    const store = createStore(undefined, { frameMs: 10_000 });
    store.enqueue({ type: 'user_prompt', text: 'go' });
    expect(store.getSnapshot().items).toHaveLength(0);
    store.dispatch({ type: 'notice', level: 'info', message: 'after' });
    expect(store.getSnapshot().items.map((i) => i.kind)).toEqual(['user', 'notice']);
    store.enqueue({ type: 'text_delta', text: 'y' });
    store.flushNow();
    expect(store.getSnapshot().items).toHaveLength(3);
    store.dispose();
  });
});

describe('replayEvents', () => {
  it('feeds a recording into the store, paced by ts and speed', async () => {
    const store = createStore(undefined, { frameMs: 5 });
    const started = Date.now();
    const n = await replayEvents('test/fixtures/events/read-read-write.jsonl', store, { speed: 20 });
    // 59 gaps of 10 ms at 20x: about 30 ms, well under the 590 ms recorded.
    expect(Date.now() - started).toBeLessThan(500);
    expect(n).toBe(60);
    expect(store.getSnapshot().items.filter((i) => i.kind === 'tool')).toHaveLength(3);
    store.dispose();
  });

  it('names the file and line of a bad event', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-replay-'));
    const file = join(dir, 'bad.jsonl');
    await writeFile(file, '{"type":"user_prompt","text":"hi"}\n{"type":"nope"}\n');
    const store = createStore();
    await expect(replayEvents(file, store)).rejects.toThrow(`${file}:2: not an AgentEvent (type "nope")`);
    await writeFile(file, 'not json\n');
    await expect(replayEvents(file, store)).rejects.toThrow(`${file}:1: not JSON`);
  });
});
