// Reading a file cairn is configured by (settings, provider config, agent definitions) must not
// hang or fail without naming the file. Opening a FIFO blocks until a writer comes, a device may
// never end, a directory fails with a bare EISDIR, and editors on Windows save a UTF-8 BOM.
import { constants, type Stats } from 'node:fs';
import fs from 'node:fs/promises';
import { closeSync, fstatSync, openSync, readFileSync, statSync } from 'node:fs';

/** Why a file could not be read; `message` starts with the file's path. */
export class FileReadError extends Error {
  override name = 'FileReadError';
  constructor(
    readonly file: string,
    /** The problem alone, without the path. */
    readonly problem: string,
    /** True when the path is not a regular file (FIFO, directory, device, socket). */
    readonly notAFile: boolean,
  ) {
    super(`${file}: ${problem}`);
  }
}

export interface ReadTextOptions {
  /** Larger files are refused, so a mistake cannot exhaust memory. Default 16 MiB. */
  maxBytes?: number;
}

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;
// O_NONBLOCK: if the path is swapped for a FIFO between stat and open, open still returns at once.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** "a directory", "a FIFO (named pipe)", ...: what a path is when it is not a regular file. */
export function describeFileType(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function checkStat(file: string, stat: Stats, maxBytes: number): void {
  if (!stat.isFile()) throw new FileReadError(file, `is ${describeFileType(stat)}, not a file; not read`, true);
  if (stat.size > maxBytes) throw new FileReadError(file, `is ${stat.size} bytes, more than the ${maxBytes} allowed; not read`, false);
}

function wrap(file: string, error: unknown): unknown {
  if (error instanceof FileReadError) return error;
  const err = error as NodeJS.ErrnoException;
  if (err.code === 'EISDIR') return new FileReadError(file, 'is a directory, not a file; not read', true);
  return new FileReadError(file, `cannot read: ${err.code ?? err.message}`, false);
}

/** The file's text without a BOM; undefined when it does not exist. Throws FileReadError. */
export async function readTextFile(file: string, options: ReadTextOptions = {}): Promise<string | undefined> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let handle: fs.FileHandle | undefined;
  try {
    checkStat(file, await fs.stat(file), maxBytes);
    handle = await fs.open(file, OPEN_FLAGS);
    checkStat(file, await handle.stat(), maxBytes);
    return stripBom(await handle.readFile('utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw wrap(file, error);
  } finally {
    await handle?.close();
  }
}

/** The synchronous twin of readTextFile, for configuration read before anything is async. */
export function readTextFileSync(file: string, options: ReadTextOptions = {}): string | undefined {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let fd: number | undefined;
  try {
    checkStat(file, statSync(file), maxBytes);
    fd = openSync(file, OPEN_FLAGS);
    checkStat(file, fstatSync(fd), maxBytes);
    return stripBom(readFileSync(fd, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw wrap(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The target of `file` when it is a symbolic link to nothing (a file that "does not exist" yet is listed). */
export async function danglingLinkTarget(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.lstat(file);
    if (!stat.isSymbolicLink()) return undefined;
    await fs.stat(file);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
    try {
      return await fs.readlink(file);
    } catch {
      return undefined; // no link at all: the file is simply absent
    }
  }
}
