import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anthropicReply } from '../helpers/anthropic-server.js';
import { screenshotPng } from '../helpers/image-files.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { waitFor } from '../helpers/wait-for.js';

// Thumbnails in the transcript (tui.json inlineImages) are kitty's: the built cairn runs in tmux
// with kitty's variables (TMUX unset, so cairn takes the terminal for kitty), and every byte it
// writes is kept (pipe-pane). Off, the default: the chip, and no graphics escape at all. On: the
// picture is sent once (APC G) and the transcript holds its placeholder cells under the chip.
const { startAnthropic } = cairnTerminals();

const APC_G = '\x1b_G';
const PLACEHOLDER = String.fromCodePoint(0x10eeee);

async function sendShot(inlineImages: boolean | undefined) {
  let log = '';
  const { term, ws } = await startAnthropic(() => anthropicReply([{ type: 'text', text: 'Got the picture.' }]), {
    before: 'unset TMUX; ',
    env: { KITTY_WINDOW_ID: '1' },
    ...(inlineImages !== undefined ? { homeFiles: { 'tui.json': JSON.stringify({ inlineImages }) } } : {}),
    prepare: async ({ dir }) => {
      await fs.writeFile(path.join(dir, 'shot.png'), await screenshotPng(1280, 800));
      log = path.join(path.dirname(dir), 'pane-output.log');
    },
  });
  term.tmux('pipe-pane', '-O', `cat >> '${log}'`);
  term.type('what is wrong here? @shot.png');
  term.keys('Enter');
  await term.waitForText('Got the picture.');
  const chip = await term.waitForScreen((s) => /⎿ \[image shot\.png · 1280x800 · \d+ KB\]/.test(s), 'the chip under the prompt');
  return { term, chip, written: async () => fs.readFile(log, 'utf8').catch(() => ''), ws };
}

describe.skipIf(!TmuxTerminal.available())('inline images (kitty)', () => {
  it('off by default: only the chip is written, no graphics escape and no placeholder cell', { timeout: 60_000 }, async () => {
    const { written } = await sendShot(undefined);
    // Something was logged (the answer), so an empty log cannot pass for "nothing written".
    const out = await waitFor(async () => {
      const text = await written();
      if (!text.includes('Got the picture.')) throw new Error('the pane log has not caught up');
      return text;
    }, { timeout: 20_000 });
    expect(out).not.toContain(APC_G);
    expect(out).not.toContain(PLACEHOLDER);
  });

  it('on: the thumbnail is sent once as a PNG and shown by placeholder cells under the chip', { timeout: 60_000 }, async () => {
    const { term, written } = await sendShot(true);
    const out = await waitFor(async () => {
      const text = await written();
      if (!text.includes(PLACEHOLDER)) throw new Error('no placeholder cells written yet');
      return text;
    }, { timeout: 20_000 });
    const escapes = out.match(/\x1b_G[^;]*;/g) ?? [];
    expect(escapes[0]).toMatch(/^\x1b_Ga=T,f=100,t=d,U=1,i=1,c=\d+,r=6,q=2[,;]/);
    expect(out).toContain(`\x1b[38;5;1m${PLACEHOLDER}\u0305\u0305`);
    // In the transcript: six rows of placeholder cells right under the chip (tmux prints them as text).
    const screen = term.screen().split('\n');
    const at = screen.findIndex((l) => l.includes('⎿ [image shot.png'));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(screen.slice(at + 1, at + 7).every((l) => l.startsWith(`    ${PLACEHOLDER}`))).toBe(true);
    expect(screen[at + 7]).not.toContain(PLACEHOLDER);
  });
});
