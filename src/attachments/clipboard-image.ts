import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sniffType } from './file-kind.js';
import type { InputMedia } from './input-media.js';

/** What the clipboard held: an image, or a sentence saying why there is none (the missing tool named). */
export type ClipboardImage = { media: Omit<InputMedia, 'name'> } | { problem: string };

export interface ClipboardEnv {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
}

function onPath(tool: string, env: NodeJS.ProcessEnv): boolean {
  return (env['PATH'] ?? '').split(path.delimiter).some((dir) => {
    if (dir === '') return false;
    try {
      accessSync(path.join(dir, tool), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(tool, args, { env, encoding: 'buffer', maxBuffer: 64 * 1024 * 1024, timeout: 5000 }, (error, stdout) => (error ? reject(new Error(`${tool}: ${error.message}`, { cause: error })) : resolve(stdout)));
  });
}

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

function asImage(bytes: Buffer, tool: string): ClipboardImage {
  const type = sniffType(bytes.subarray(0, 16));
  if (!type || type === 'application/pdf') return { problem: `The clipboard holds no image (${tool} gave ${bytes.length === 0 ? 'nothing' : 'something else'}).` };
  return { media: { mediaType: type, data: bytes } };
}

/** The image types a list of clipboard targets offers, best first. */
function imageTarget(targets: string): string | undefined {
  const offered = targets.split('\n').map((t) => t.trim());
  return IMAGE_TYPES.find((t) => offered.includes(t));
}

/**
 * The image on the system clipboard, read with the platform's tool when it is there: Wayland
 * `wl-paste`, X11 `xclip` (`xsel` cannot hand over images: it is named as what to replace),
 * macOS `osascript` (`pbpaste` reads only text). Never throws.
 */
export async function readClipboardImage({ env, platform }: ClipboardEnv): Promise<ClipboardImage> {
  try {
    if (platform === 'darwin') return await macClipboard(env);
    if (env['WAYLAND_DISPLAY']) {
      if (onPath('wl-paste', env)) {
        const target = imageTarget((await run('wl-paste', ['--list-types'], env)).toString());
        if (!target) return { problem: 'The clipboard holds no image (wl-paste offers none).' };
        return asImage(await run('wl-paste', ['--no-newline', '--type', target], env), 'wl-paste');
      }
      if (!env['DISPLAY']) return { problem: 'Pasting an image needs wl-paste (the wl-clipboard package) on Wayland; it is not installed.' };
    }
    if (env['DISPLAY']) {
      if (onPath('xclip', env)) {
        const target = imageTarget((await run('xclip', ['-selection', 'clipboard', '-t', 'TARGETS', '-o'], env)).toString());
        if (!target) return { problem: 'The clipboard holds no image (xclip offers none).' };
        return asImage(await run('xclip', ['-selection', 'clipboard', '-t', target, '-o'], env), 'xclip');
      }
      if (onPath('xsel', env)) return { problem: 'Pasting an image needs xclip: xsel reads only text from the clipboard. Install xclip.' };
      return { problem: 'Pasting an image needs xclip (X11) or wl-paste (Wayland); neither is installed.' };
    }
    return { problem: 'Pasting an image needs a desktop clipboard (no WAYLAND_DISPLAY or DISPLAY here): drop the file on the terminal or type @path instead.' };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { problem: `Reading the clipboard failed: ${message}` };
  }
}

async function macClipboard(env: NodeJS.ProcessEnv): Promise<ClipboardImage> {
  if (!onPath('osascript', env)) return { problem: 'Pasting an image needs osascript (macOS), which is not on PATH.' };
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-clip-'));
  const file = path.join(dir, 'clipboard.png');
  try {
    const script = [
      'try',
      `set f to open for access POSIX file ${JSON.stringify(file)} with write permission`,
      'write (the clipboard as «class PNGf») to f',
      'close access f',
      'on error',
      'return "none"',
      'end try',
    ];
    const out = (await run('osascript', script.flatMap((line) => ['-e', line]), env)).toString().trim();
    if (out === 'none') return { problem: 'The clipboard holds no image.' };
    return asImage(readFileSync(file), 'osascript');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
