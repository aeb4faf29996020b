// Writing a file so a reader never sees half of it: a temp file beside it, then a rename.
import fs from 'node:fs/promises';
import path from 'node:path';

/** Writes `text` to `file` (its folder made first) through a temp file renamed over it; the temp file is removed on failure. */
export async function writeFileAtomically(file: string, text: string, options: { mode?: number } = {}): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // node:crypto loads here, when a file is written, not with the settings readers before the first frame.
  const { randomBytes } = await import('node:crypto');
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.writeFile(tmp, text, { encoding: 'utf8', ...(options.mode !== undefined ? { mode: options.mode } : {}) });
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
