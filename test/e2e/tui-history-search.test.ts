import { describe, expect, it } from 'vitest';
import { ESC_ESC_MS } from '../../components/keys/esc-esc.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Prompt history in the built cairn, in a real terminal: Ctrl+R searches it incrementally, and
// Esc Esc clears a draft while keeping it in the history.
const { start } = cairnTerminals();

const draftRow = (screen: string): string => screen.split('\n').find((l) => /^│ > /.test(l))?.slice(4).replace(/\s*│\s*$/, '') ?? '';

describe.skipIf(!TmuxTerminal.available())('prompt history in a real terminal', () => {
  it('Ctrl+R narrows earlier prompts as you type, Ctrl+R goes older, Enter takes one into the prompt; Esc cancels and keeps the draft', async () => {
    const { term } = await start({
      homeFiles: {
        'history.jsonl': ['write alpha to a.txt', 'list', 'write beta to b.txt', 'read c.txt'].map((text) => JSON.stringify({ text, ts: '2026-01-01T00:00:00Z', cwd: '/x' })).join('\n') + '\n',
      },
    });
    term.type('half a draft');
    term.keys('C-r');
    await term.waitForText('Search earlier prompts');
    term.type('write');
    let screen = await term.waitForScreen((s) => s.includes('search: write'), 'the query typed');
    expect(screen).toMatch(/› write beta to b\.txt/);
    expect(screen).toContain('write alpha to a.txt');
    expect(screen).not.toContain('read c.txt');
    term.keys('C-r');
    await term.waitForScreen((s) => /› write alpha to a\.txt/.test(s), 'the older match selected');
    term.keys('Enter');
    screen = await term.waitForScreen((s) => !s.includes('Search earlier prompts'), 'the search closed');
    expect(draftRow(screen)).toBe('write alpha to a.txt');

    // Esc cancels: the draft is what it was.
    term.keys('C-r');
    await term.waitForText('Search earlier prompts');
    term.type('zzz');
    await term.waitForText('No earlier prompt holds "zzz"');
    term.keys('Escape');
    screen = await term.waitForScreen((s) => !s.includes('Search earlier prompts'), 'the search cancelled');
    expect(draftRow(screen)).toBe('write alpha to a.txt');
  });

  it('one Esc leaves the draft; Esc Esc clears it, and Up brings it back from the history', async () => {
    const { term } = await start({});
    // One Esc on an idle prompt leaves the draft alone.
    term.type('keep me');
    await term.waitForText('keep me');
    term.keys('Escape');
    // A person's second key comes later than the double-press window: the behaviour under test,
    // not a wait for output (the single Esc shows nothing to wait for).
    await new Promise((r) => setTimeout(r, ESC_ESC_MS + 200));
    term.type(' too');
    await term.waitForText('keep me too');
    term.keys('Escape');
    term.keys('Escape');
    let screen = await term.waitForScreen((s) => !s.includes('keep me too'), 'the draft cleared');
    expect(screen).toContain('Ask cairn');
    term.keys('Up');
    screen = await term.waitForText('keep me too');
    expect(draftRow(screen)).toBe('keep me too');
  });
});
