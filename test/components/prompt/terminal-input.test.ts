import { EventEmitter } from 'node:events';
import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { applyEditorKey } from '../../../components/keys/editor-keys.js';
import { emptyEditor, type EditorState } from '../../../components/prompt/editor.js';
import { PASTE_END_SEQUENCE, PasteSilenceWatch, watchPasteSilence, type PasteTimers } from '../../../components/prompt/terminal-input.js';

/** A clock the test moves by hand. */
class FakeClock implements PasteTimers {
  now = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;
  setTimeout(fn: () => void, ms: number): number {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  advance(ms: number): void {
    this.now += ms;
    for (const [id, t] of [...this.timers]) {
      if (t.at <= this.now) {
        this.timers.delete(id);
        t.fn();
      }
    }
  }
}

/** Stands for the TTY stdin: what Ink reads is emitted as 'data'; unshift is read back at once. */
class FakeInput extends EventEmitter {
  readableFlowing: boolean | null = false;
  readonly received: string[] = [];
  send(chunk: string): void {
    this.received.push(chunk);
    this.emit('data', chunk);
  }
  unshift(chunk: string): void {
    this.send(chunk);
  }
}

const NONE = { upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false, home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false, backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false } satisfies Key;

describe('PasteSilenceWatch', () => {
  it('a start marker with no end: after the silence the paste ends, once', () => {
    const clock = new FakeClock();
    let ended = 0;
    const watch = new PasteSilenceWatch(() => ended++, 200, clock);
    watch.push('\x1b[200~hello ');
    clock.advance(150);
    watch.push('world'); // more paste: the silence starts again
    clock.advance(199);
    expect(ended).toBe(0);
    expect(watch.pasting).toBe(true);
    clock.advance(1);
    expect(ended).toBe(1);
    expect(watch.pasting).toBe(false);
    clock.advance(1000);
    expect(ended).toBe(1);
  });

  it('a paste that ends normally, even with its markers split across reads, never fires', () => {
    const clock = new FakeClock();
    let ended = 0;
    const watch = new PasteSilenceWatch(() => ended++, 200, clock);
    watch.push('\x1b[20');
    watch.push('0~text\x1b[2');
    expect(watch.pasting).toBe(true);
    watch.push('01~typed');
    clock.advance(1000);
    expect(ended).toBe(0);
    watch.push('plain keys, no paste');
    clock.advance(1000);
    expect(ended).toBe(0);
  });
});

describe('watchPasteSilence with the prompt editor', () => {
  it('the text pasted so far reaches the prompt after the silence, and the keys after it are typed', () => {
    const clock = new FakeClock();
    const input = new FakeInput();
    let editor: EditorState = emptyEditor();
    // What Ink does with each chunk it reads: it strips the ESC of sequences it does not know.
    input.on('data', (chunk: string) => {
      editor = applyEditorKey(editor, chunk.replace(/^\x1b/, ''), NONE, { history: [] }).state;
    });
    const stop = watchPasteSilence(input, 200, clock);

    input.send('\x1b[200~pasted text');
    input.send('x'); // before the silence: still part of the paste
    expect(editor.text).toBe('');
    clock.advance(200);
    expect(input.received.at(-1)).toBe(PASTE_END_SEQUENCE);
    expect(editor.text).toBe('pasted textx');
    input.send(' typed');
    expect(editor.text).toBe('pasted textx typed');
    expect(editor.pasting).toBeUndefined();
    stop();
    expect(input.listenerCount('data')).toBe(1); // only the editor's
  });
});
