import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { screenshotPng } from '../helpers/image-files.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// Images in the built cairn, in a real terminal, against a loopback Anthropic server: a dropped
// file (the terminal pastes its path, bracketed) becomes a chip, Backspace takes it out, Enter sends it.
const { startAnthropic } = cairnTerminals();

/** What a terminal does when a file is dropped on it: pastes its path, bracketed. */
function drop(term: TmuxTerminal, pasted: string): void {
  term.tmux('set-buffer', pasted);
  term.tmux('paste-buffer', '-p');
}

describe.skipIf(!TmuxTerminal.available())('images in a real terminal', () => {
  it('a dropped PNG path becomes a chip; Backspace removes it; dropped again and sent, the server gets the image', async () => {
    let png: Buffer | undefined;
    let desktop = '';
    const { term, server } = await startAnthropic(() => anthropicReply([{ type: 'text', text: 'Got the picture.' }]), {
      files: { 'fake.png': 'not a picture\n' },
      prepare: async ({ dir }) => {
        // A screenshot outside the workspace, in a folder with a space: dropped files come from anywhere.
        desktop = path.join(path.dirname(dir), 'My Desktop');
        await fs.mkdir(desktop);
        png = await screenshotPng(1280, 800);
        await fs.writeFile(path.join(desktop, 'shot.png'), png);
      },
    });
    const quoted = `'${path.join(desktop, 'shot.png')}'`;
    drop(term, quoted);
    await term.waitForScreen((s) => s.includes('> [image shot.png · 1280x800]'), 'the chip in the prompt');
    expect(term.screen()).not.toContain('My Desktop');

    term.keys('BSpace');
    await term.waitForScreen((s) => !s.includes('[image shot.png') && s.includes('│ > Ask cairn'), 'the chip removed by one Backspace');

    drop(term, `${desktop.replace(/ /g, '\\ ')}/shot.png`);
    await term.waitForScreen((s) => s.includes('> [image shot.png · 1280x800]'), 'the chip again (backslash-escaped form)');
    term.type('what is wrong here?');
    term.keys('Enter');
    const screen = await term.waitForText('Got the picture.');
    expect(screen).toMatch(/⎿ \[image shot\.png · 1280x800 · \d+ KB\]/);

    const content = server.requests[0]!.body.messages[0]!.content;
    expect(content[0]).toEqual({ type: 'text', text: '[image shot.png · 1280x800] what is wrong here?' });
    expect(content[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png!.toString('base64') } });

    // A file that only claims to be an image: a notice naming it and why; nothing joins the draft.
    drop(term, path.join(path.dirname(desktop), 'ws', 'fake.png'));
    await term.waitForText('fake.png is named like a PNG image but its content is not an image or PDF');
    expect(term.screen()).not.toContain('[image fake.png');
    expect(server.requests).toHaveLength(1);

    // A pasted path that names no file was text after all: it lands in the draft as pasted.
    drop(term, '/no/such/folder/diagram.png');
    await term.waitForText('│ > /no/such/folder/diagram.png');
  });
});
