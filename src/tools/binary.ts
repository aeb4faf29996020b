import fs from 'node:fs/promises';

export const BINARY_SNIFF_BYTES = 8192;

/** Same heuristic as git: a NUL byte in the first 8 KB means binary. */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export async function readHead(file: string, bytes = BINARY_SNIFF_BYTES): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
