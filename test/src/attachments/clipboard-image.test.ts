import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readClipboardImage } from '../../../src/attachments/clipboard-image.js';
import { screenshotPng } from '../../helpers/image-files.js';

// The clipboard tools are real child processes; this machine has no desktop clipboard, so each
// test puts a small executable of that tool's name on PATH, answering as the tool does.
async function toolDir(tools: Record<string, string>): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-clip-tools-'));
  for (const [name, script] of Object.entries(tools)) await fs.writeFile(path.join(dir, name), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return dir;
}

describe('readClipboardImage', () => {
  it('X11: asks xclip which targets the clipboard offers, then reads the PNG', async () => {
    const dir = await toolDir({});
    await fs.writeFile(path.join(dir, 'shot.png'), await screenshotPng(30, 20));
    await fs.writeFile(
      path.join(dir, 'xclip'),
      `#!/bin/sh\ncase "$*" in *TARGETS*) printf 'TARGETS\\ntext/plain\\nimage/png\\n';; *image/png*) cat "${path.join(dir, 'shot.png')}";; *) exit 1;; esac\n`,
      { mode: 0o755 },
    );
    const got = await readClipboardImage({ env: { PATH: `${dir}:/usr/bin:/bin`, DISPLAY: ':0' }, platform: 'linux' });
    expect('media' in got && got.media.mediaType).toBe('image/png');
    expect('media' in got && got.media.data.equals(await fs.readFile(path.join(dir, 'shot.png')))).toBe(true);
  });

  it('Wayland: wl-paste with text only on the clipboard says there is no image', async () => {
    const dir = await toolDir({ 'wl-paste': `case "$*" in *list-types*) printf 'text/plain\\n';; *) exit 1;; esac` });
    expect(await readClipboardImage({ env: { PATH: dir, WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux' })).toEqual({ problem: 'The clipboard holds no image (wl-paste offers none).' });
  });

  it.each([
    [{ WAYLAND_DISPLAY: 'wayland-0' }, {}, 'Pasting an image needs wl-paste (the wl-clipboard package) on Wayland; it is not installed.'],
    [{ DISPLAY: ':0' }, {}, 'Pasting an image needs xclip (X11) or wl-paste (Wayland); neither is installed.'],
    [{ DISPLAY: ':0' }, { xsel: 'exit 0' }, 'Pasting an image needs xclip: xsel reads only text from the clipboard. Install xclip.'],
    [{}, {}, 'Pasting an image needs a desktop clipboard (no WAYLAND_DISPLAY or DISPLAY here): drop the file on the terminal or type @path instead.'],
  ])('%j with tools %j: one line naming what is missing', async (display, tools, message) => {
    const dir = await toolDir(tools);
    expect(await readClipboardImage({ env: { PATH: dir, ...display }, platform: 'linux' })).toEqual({ problem: message });
  });

  it('macOS without osascript on PATH names it', async () => {
    const dir = await toolDir({});
    expect(await readClipboardImage({ env: { PATH: dir }, platform: 'darwin' })).toEqual({ problem: 'Pasting an image needs osascript (macOS), which is not on PATH.' });
  });
});
