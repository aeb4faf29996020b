import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Key } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { keyHelp } from '../../../components/keys/key-help.js';
import { is, KEYMAP, setActiveKeymap } from '../../../components/keys/keymap.js';
import { blankKey } from '../../../components/keys/split-keys.js';
import { applyKeybindings, loadKeybindings, parseKey } from '../../../components/keys/user-keybindings.js';
import { applyEditorKey } from '../../../components/keys/editor-keys.js';
import { isAnswer, whichOf } from '../../../components/keys/keymap.js';
import { approvalChoices } from '../../../components/store/approval-choices.js';
import type { PermissionRequest } from '../../../components/store/types.js';

afterEach(() => setActiveKeymap(KEYMAP));
const key = (over: Partial<Key>): Key => ({ ...blankKey(), ...over });

describe('keybindings.json', () => {
  it('parses key names with modifiers', () => {
    expect(parseKey('ctrl+t')).toEqual({ input: 't', ctrl: true });
    expect(parseKey('shift+tab')).toEqual({ key: 'tab', shift: true });
    expect(parseKey('alt+enter')).toEqual({ key: 'return', meta: true });
    expect(parseKey('PageUp')).toEqual({ key: 'pageUp' });
    expect(parseKey('q')).toEqual({ input: 'q' });
    expect(parseKey('hyper+x')).toMatch(/unknown modifier "hyper"/);
    expect(parseKey('ctrl+banana')).toMatch(/unknown key "banana"/);
  });

  it('a rebound command takes exactly the keys given, and the dispatcher and /help follow', () => {
    const { keymap, problems } = applyKeybindings({ bindings: { cycleMode: ['ctrl+t'] } }, 'kb.json');
    expect(problems).toEqual([]);
    setActiveKeymap(keymap);
    expect(is('cycleMode', 't', key({ ctrl: true }))).toBe(true);
    expect(is('cycleMode', '', key({ tab: true, shift: true }))).toBe(false);
    expect(keyHelp().join('\n')).toMatch(/Ctrl\+T\s+next permission mode/);
  });

  it('names the file and the field for every problem, and keeps the defaults where a binding is bad', () => {
    const { keymap, problems } = applyKeybindings({ bindings: { nosuch: ['x'], redraw: ['ctrl+banana'], search: ['n'] } }, '/home/u/.cairn/keybindings.json');
    expect(problems).toEqual([
      expect.stringMatching(/^\/home\/u\/\.cairn\/keybindings\.json: bindings\.nosuch: no such command/),
      expect.stringMatching(/bindings\.redraw: unknown key "banana".*keeping its default keys/),
      // n already finds the next match in the full view
      expect.stringMatching(/bindings\.search: its key is also nextMatch's \(in view\)/),
    ]);
    expect(keymap.redraw).toBe(KEYMAP.redraw);
    expect(applyKeybindings({ keys: {} }, 'kb.json').problems[0]).toMatch(/^kb\.json: .*using the default keys/);
  });

  it('a missing file is the defaults; broken JSON is reported', async () => {
    const home = await mkdtemp(join(tmpdir(), 'cairn-kb-'));
    expect(await loadKeybindings(home)).toEqual({ keymap: KEYMAP, problems: [] });
    await writeFile(join(home, 'keybindings.json'), '{ "bindings": ');
    const broken = await loadKeybindings(home);
    expect(broken.problems[0]).toMatch(/keybindings\.json: invalid JSON/);
    expect(broken.keymap).toEqual(KEYMAP);
  });

  it('a rebinding reaches the editor, directions, approval answers and their marks', () => {
    const { keymap, problems } = applyKeybindings({ bindings: { up: ['k'], killToLineEnd: ['ctrl+y'], answerYes: ['o'], top: ['home', 'ctrl+t'] } }, 'kb.json');
    // Home stays shared with the line start, as in the defaults: not a clash.
    expect(problems).toEqual([]);
    setActiveKeymap(keymap);
    expect(whichOf('up', 'down', 'k', key({}))).toBe('up');
    expect(whichOf('top', 'bottom', 't', key({ ctrl: true }))).toBe('top');
    const draft = { text: 'one two', cursor: 3, pastes: [] };
    expect(applyEditorKey(draft, 'y', key({ ctrl: true }), { history: [] }).state.text).toBe('one');
    expect(applyEditorKey(draft, 'k', key({ ctrl: true }), { history: [] }).state.text).toBe('one two');
    expect(applyEditorKey({ text: '', cursor: 0, pastes: [] }, 'k', key({}), { history: ['earlier'] }).state.text).toBe('earlier');
    const request = { id: 't1', name: 'bash', input: {}, reason: 'r', suggestions: ['Bash(ls)'] } as unknown as PermissionRequest;
    const yes = approvalChoices(request).find((c) => c.kind === 'yes')!;
    expect(yes.key).toBe('o');
    expect(isAnswer(yes.command, 'O', key({ shift: true }))).toBe(true);
    expect(isAnswer(yes.command, 'y', key({}))).toBe(false);
  });
});
