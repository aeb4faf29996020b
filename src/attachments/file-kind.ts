import path from 'node:path';
import type { ImageMediaType } from '../messages.js';

export type AttachableType = ImageMediaType | 'application/pdf';

const BY_EXTENSION: Readonly<Record<string, AttachableType>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.pdf': 'application/pdf',
};

/** What a file's name says it is, when that is an image or PDF cairn can attach. */
export function claimedType(file: string): AttachableType | undefined {
  return BY_EXTENSION[path.extname(file).toLowerCase()];
}

/** What a file's first bytes say it is (its magic number), whatever its name. */
export function sniffType(head: Uint8Array): AttachableType | undefined {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (b.length >= 5 && b.toString('latin1', 0, 5) === '%PDF-') return 'application/pdf';
  return undefined;
}

export function typeName(type: AttachableType): string {
  return type === 'application/pdf' ? 'PDF' : (type.split('/')[1] ?? type).toUpperCase();
}
