import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileReadError, readTextFile, readTextFileSync } from '../../../src/util/read-text-file.js';
import { makeFifo, releaseFifo } from '../../helpers/fifo.js';

let dir: string;
const fifos: string[] = [];
beforeEach(async () => {
  dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-read-')));
});
afterEach(async () => {
  for (const f of fifos.splice(0)) releaseFifo(f);
  await fs.rm(dir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<FileReadError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(FileReadError);
  return error as FileReadError;
}

describe('readTextFile', () => {
  it('a FIFO is refused at once, naming the path and what it is (it would block forever if opened)', { timeout: 5000 }, async () => {
    const file = path.join(dir, 'settings.json');
    makeFifo(file);
    fifos.push(file);
    const error = await failure(readTextFile(file));
    expect(error.message).toBe(`${file}: is a FIFO (named pipe), not a file; not read`);
    expect(error.notAFile).toBe(true);
    expect(() => readTextFileSync(file)).toThrow(`${file}: is a FIFO (named pipe), not a file`);
  });

  it('a directory and a device are named as such', async () => {
    expect((await failure(readTextFile(dir))).message).toBe(`${dir}: is a directory, not a file; not read`);
    expect((await failure(readTextFile('/dev/zero'))).message).toBe('/dev/zero: is a character device, not a file; not read');
  });

  it('a UTF-8 BOM is dropped; a missing file is undefined; a file over the limit is refused', async () => {
    const file = path.join(dir, 'config.json');
    await fs.writeFile(file, '\ufeff{"a":1}');
    expect(await readTextFile(file)).toBe('{"a":1}');
    expect(readTextFileSync(file)).toBe('{"a":1}');
    expect(await readTextFile(path.join(dir, 'none.json'))).toBeUndefined();
    expect((await failure(readTextFile(file, { maxBytes: 4 }))).message).toMatch(/is 10 bytes, more than the 4 allowed/);
  });
});
