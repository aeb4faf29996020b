import fs from 'node:fs/promises';
import type { ToolContext } from './tool.js';

/**
 * Whether Read deny rules cover a file a search came across: by the name it was found under, or, for a
 * symlink, by where it leads (`notes -> .env` must not print `.env`).
 */
export async function isFileReadDenied(ctx: ToolContext, file: string): Promise<boolean> {
  const denied = ctx.isReadDenied;
  if (!denied) return false;
  if (denied(file)) return true;
  try {
    const real = await fs.realpath(file);
    return real !== file && denied(real);
  } catch {
    return false; // gone or dangling: there is nothing to read
  }
}

/** The line a result adds when deny rules hid files: how many, never which or what they hold. */
export function deniedNote(count: number, noun: 'file' | 'entry' = 'file'): string | undefined {
  if (count === 0) return undefined;
  const what = count === 1 ? `${noun} was` : `${noun === 'entry' ? 'entries' : 'files'} were`;
  return `(${count} ${what} left out by Read deny rules.)`;
}
