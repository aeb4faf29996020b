import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { applyEditorKey } from '../../../components/keys/editor-keys.js';
import { editorOwnsInput, emptyEditor, parseMouseWheel } from '../../../components/prompt/editor.js';
import type { EditorState } from '../../../components/prompt/editor.js';

const NONE: Key = {
  upArrow: false, downArrow: false, leftArrow: false, rightArrow: false, pageDown: false, pageUp: false,
  home: false, end: false, return: false, escape: false, ctrl: false, shift: false, tab: false,
  backspace: false, delete: false, meta: false, super: false, hyper: false, capsLock: false, numLock: false,
};
const k = (flags: Partial<Key> = {}): Key => ({ ...NONE, ...flags });

/** Applies events in order; each is typed text or [input, key flags]. */
function run(events: (string | [string, Partial<Key>])[], opts: { history?: string[]; from?: EditorState } = {}) {
  let state = opts.from ?? emptyEditor();
  const submits: string[] = [];
  for (const e of events) {
    const [input, key] = typeof e === 'string' ? [e, {}] : e;
    const r = applyEditorKey(state, input, k(key), { history: opts.history ?? [] });
    state = r.state;
    if (r.submit !== undefined) submits.push(r.submit);
  }
  return { state, submits };
}
const at = (text: string, cursor = text.length): EditorState => ({ text, cursor, pastes: [] });

describe('typing and submitting', () => {
  it('inserts single and multi-character input at the cursor', () => {
    const { state } = run(['hlo', ['', { leftArrow: true }], ['', { leftArrow: true }], 'el']);
    expect(state.text).toBe('hello');
    expect(state.cursor).toBe(3);
  });

  it('Enter submits the text and clears the editor; Enter on blank text does nothing', () => {
    const { state, submits } = run(['fix the bug', ['\r', { return: true }], ['\r', { return: true }]]);
    expect(submits).toEqual(['fix the bug']);
    expect(state).toEqual(emptyEditor());
  });

  it('backslash then Enter becomes a newline instead of submitting', () => {
    const { state, submits } = run(['line one\\', ['\r', { return: true }], 'line two']);
    expect(submits).toEqual([]);
    expect(state.text).toBe('line one\nline two');
  });

  it('Shift+Enter, Meta+Enter and Ctrl+J insert newlines', () => {
    const { state, submits } = run([
      'a', ['\r', { return: true, shift: true }],
      'b', ['\r', { return: true, meta: true }],
      'c', ['\n', {}],
      'd', ['j', { ctrl: true }], 'e',
    ]);
    expect(submits).toEqual([]);
    expect(state.text).toBe('a\nb\nc\nd\ne');
  });

  it('a chunk of typed text ending in CR inserts then submits', () => {
    const { submits } = run(['ls -la\r']);
    expect(submits).toEqual(['ls -la']);
  });

  it('control characters never reach the text', () => {
    expect(run(['a\x07b\x1b[31mc']).state.text).not.toMatch(/[\x00-\x08\x1b]/);
  });
});

describe('cursor movement', () => {
  it('Left/Right step over whole emoji and never land inside a surrogate pair', () => {
    const { state } = run(['a😀b', ['', { leftArrow: true }], ['', { leftArrow: true }]]);
    expect(state.cursor).toBe(1);
    const right = run([['', { rightArrow: true }]], { from: state }).state;
    expect(right.cursor).toBe(3);
    const back = run([['', { backspace: true }]], { from: right }).state;
    expect(back.text).toBe('ab');
  });

  it('Home/End and Ctrl+A/E work within the current line', () => {
    const base = at('first\nsecond line', 9);
    expect(run([['', { home: true }]], { from: base }).state.cursor).toBe(6);
    expect(run([['', { end: true }]], { from: base }).state.cursor).toBe(17);
    expect(run([['a', { ctrl: true }]], { from: base }).state.cursor).toBe(6);
    expect(run([['e', { ctrl: true }]], { from: at('first\nsecond', 2) }).state.cursor).toBe(5);
  });

  it('Up/Down move between lines keeping the column, clamped to shorter lines', () => {
    const base = at('abcdef\nxy\nlonger line', 4);
    const down1 = run([['', { downArrow: true }]], { from: base }).state;
    expect(down1.cursor).toBe(9); // end of "xy"
    const down2 = run([['', { downArrow: true }]], { from: down1 }).state;
    expect(down2.cursor).toBe(12); // column 2 of "longer line"
    expect(run([['', { upArrow: true }]], { from: down2 }).state.cursor).toBe(9);
  });

  it('Meta/Ctrl+Left/Right and ESC b/f move by words', () => {
    const base = at('git commit --amend');
    const w1 = run([['', { leftArrow: true, meta: true }]], { from: base }).state;
    expect(w1.cursor).toBe(11);
    expect(run([['b', { meta: true }]], { from: w1 }).state.cursor).toBe(4);
    expect(run([['', { rightArrow: true, ctrl: true }]], { from: at('git commit', 0) }).state.cursor).toBe(3);
    expect(run([['f', { meta: true }]], { from: at('git commit', 3) }).state.cursor).toBe(10);
  });
});

describe('deleting', () => {
  it('Backspace as Ink 6.8 reports it (key.delete for 0x7f, key.backspace for ^H) deletes left', () => {
    expect(run(['abc', ['', { delete: true }]]).state.text).toBe('ab');
    expect(run(['abc', ['', { backspace: true }]]).state.text).toBe('ab');
  });

  it('the Delete key deletes right when the raw sequence is known, and Ctrl+D does too', () => {
    const r = applyEditorKey(at('abc', 1), '', k({ delete: true }), { history: [], raw: '\x1b[3~' });
    expect(r.state.text).toBe('ac');
    expect(run([['d', { ctrl: true }]], { from: at('abc', 1) }).state.text).toBe('ac');
    const empty = emptyEditor();
    expect(applyEditorKey(empty, 'd', k({ ctrl: true }), { history: [] }).state).toBe(empty);
  });

  it('Ctrl+K kills to end of line, and joins lines at a line end', () => {
    expect(run([['k', { ctrl: true }]], { from: at('hello world\nnext', 5) }).state.text).toBe('hello\nnext');
    expect(run([['k', { ctrl: true }]], { from: at('hello\nnext', 5) }).state.text).toBe('hellonext');
  });

  it('Ctrl+U kills to start of line, Ctrl+W and Meta+Backspace delete the previous word', () => {
    expect(run([['u', { ctrl: true }]], { from: at('one\ntwo three', 8) }).state).toMatchObject({ text: 'one\nthree', cursor: 4 });
    expect(run([['w', { ctrl: true }]], { from: at('run the tests  ') }).state.text).toBe('run the ');
    expect(run([['', { delete: true, meta: true }]], { from: at('run the tests') }).state.text).toBe('run the ');
  });
});

describe('history', () => {
  const history = ['oldest', 'middle\nsecond line', 'newest'];

  it('Up walks back through history, Down walks forward and restores the draft', () => {
    const up = (s: EditorState) => run([['', { upArrow: true }]], { history, from: s }).state;
    const down = (s: EditorState) => run([['', { downArrow: true }]], { history, from: s }).state;
    const draft = at('my draft');
    const s1 = up(draft);
    expect(s1.text).toBe('newest');
    const s2 = up(s1);
    expect(s2.text).toBe('middle\nsecond line');
    expect(s2.cursor).toBe(6); // first line, so Up goes on to older entries
    const s3 = up(s2);
    expect(s3.text).toBe('oldest');
    expect(up(s3).text).toBe('oldest');
    const d1 = down(s3);
    expect(d1.text).toBe('middle\nsecond line');
    expect(d1.cursor).toBe(d1.text.length);
    const d2 = down(d1);
    expect(d2.text).toBe('newest');
    const d3 = down(d2);
    expect(d3).toMatchObject({ text: 'my draft', cursor: 8 });
    expect(d3.historyIndex).toBeUndefined();
  });

  it('editing a recalled entry makes it the draft', () => {
    const { state } = run([['', { upArrow: true }], '!'], { history });
    expect(state.text).toBe('newest!');
    expect(state.historyIndex).toBeUndefined();
    expect(run([['', { upArrow: true }]], { history, from: state }).state.text).toBe('newest');
  });

  it('Up with no history leaves the state untouched', () => {
    const s = at('x');
    expect(applyEditorKey(s, '', k({ upArrow: true }), { history: [] }).state).toBe(s);
  });
});

describe('bracketed paste', () => {
  it('a small paste is inserted verbatim, CRs become newlines', () => {
    const { state, submits } = run(['say: ', '[200~', 'one\rtwo\r\nthree', '[201~']);
    expect(submits).toEqual([]);
    expect(state.text).toBe('say: one\ntwo\nthree');
    expect(state.pasting).toBeUndefined();
  });

  it('a large paste becomes a placeholder, deleted as one unit, expanded on submit', () => {
    const big = Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join('\n');
    const pasted = run(['look at ', '\x1b[200~' + big + '\x1b[201~', ' please']).state;
    expect(pasted.text).toBe('look at [pasted 8 lines] please');
    const { submits } = run([['\r', { return: true }]], { from: pasted });
    expect(submits).toEqual([`look at ${big} please`]);
    const gone = run([['', { delete: true }]], { from: { ...pasted, cursor: 'look at [pasted 8 lines]'.length } }).state;
    expect(gone.text).toBe('look at  please');
    expect(gone.pastes).toEqual([]);
  });

  it('a single long line over 2000 characters becomes a placeholder too', () => {
    const long = 'x'.repeat(2500);
    const { state } = run(['[200~' + long + '[201~']);
    expect(state.text).toBe('[pasted 1 line]');
    expect(run([['\r', { return: true }]], { from: state }).submits).toEqual([long]);
  });

  it('two large pastes of the same size get distinct placeholders', () => {
    const big = 'a\nb\nc\nd\ne\nf';
    const { state, submits } = run(['[200~' + big + '[201~', ' and ', '[200~' + big.toUpperCase() + '[201~', ['\r', { return: true }]]);
    expect(submits).toEqual([`${big} and ${big.toUpperCase()}`]);
    expect(state.pastes).toEqual([]);
  });

  it('the editor owns all input from the paste start until its end', () => {
    const started = run(['[200~', 'abc']).state;
    expect(editorOwnsInput(emptyEditor(), '[200~')).toBe(true);
    expect(editorOwnsInput(started, '\t')).toBe(true);
    const ended = run(['[201~'], { from: started }).state;
    expect(editorOwnsInput(ended, '\t')).toBe(false);
  });

  it('Enter keys inside a paste do not submit', () => {
    const { submits, state } = run(['[200~', 'a', ['\r', { return: true }], 'b', ['', { tab: true }], 'c', '[201~']);
    expect(submits).toEqual([]);
    expect(state.text).toBe('a\nb\tc');
  });
});

describe('mouse reports', () => {
  it('parseMouseWheel reads wheel up/down with or without ESC and with modifiers', () => {
    expect(parseMouseWheel('\x1b[<64;10;5M')).toBe('up');
    expect(parseMouseWheel('[<65;10;5M')).toBe('down');
    expect(parseMouseWheel('[<80;1;1M')).toBe('up'); // ctrl + wheel up
    expect(parseMouseWheel('[<0;1;1M')).toBeUndefined();
    expect(parseMouseWheel('hello')).toBeUndefined();
  });

  it('wheel and click reports are never typed into the prompt', () => {
    const s = at('keep');
    for (const report of ['[<64;10;5M', '\x1b[<65;3;4M', '[<0;12;7m', '[<64;1;1M[<64;1;1M']) {
      expect(applyEditorKey(s, report, k(), { history: [] }).state).toBe(s);
    }
  });
});
