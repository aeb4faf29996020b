import type { AttachmentBlock } from '../messages.js';
import { formatBytes } from './attachment-label.js';
import { sniffType, typeName, type AttachableType } from './file-kind.js';
import { MAX_IMAGE_FILE_BYTES, MAX_PDF_FILE_BYTES, type ImageLimits } from './image-limits.js';
import { ImageProblem, prepareImage } from './prepare-image.js';
import { PdfProblem, preparePdf } from './prepare-pdf.js';

/** An image or PDF that came as bytes, not as a file (a stream-json content block): its claimed type and a name to show. */
export interface InputMedia {
  readonly mediaType: AttachableType;
  readonly data: Buffer;
  readonly name: string;
}

const EXTENSION: Readonly<Record<AttachableType, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

/** The name an unnamed input gets: `image-1.png`, `document-2.pdf`. */
export function inputMediaName(mediaType: AttachableType, index: number): string {
  return `${mediaType === 'application/pdf' ? 'document' : 'image'}-${index}.${EXTENSION[mediaType]}`;
}

export function isAttachableType(type: unknown): type is AttachableType {
  return typeof type === 'string' && type in EXTENSION;
}

/** Bytes made ready to send, with the same checks a file gets (content matches the claim, size, decode, animation, password). Throws an Error naming it. */
export async function prepareInputMedia(media: InputMedia, limits: ImageLimits): Promise<AttachmentBlock> {
  const { name, data, mediaType } = media;
  const actual = sniffType(data.subarray(0, 16));
  if (actual !== mediaType) {
    throw new Error(`${name} says media_type ${mediaType} but its data is ${actual ? `a ${typeName(actual)} file` : 'not an image or PDF'}; nothing was sent.`);
  }
  const limit = mediaType === 'application/pdf' ? MAX_PDF_FILE_BYTES : MAX_IMAGE_FILE_BYTES;
  if (data.length > limit) throw new Error(`${name} is ${formatBytes(data.length)}, over the ${formatBytes(limit)} limit; nothing was sent.`);
  try {
    return mediaType === 'application/pdf' ? await preparePdf(data, name) : await prepareImage(data, mediaType, name, limits);
  } catch (error) {
    if (error instanceof ImageProblem || error instanceof PdfProblem) throw new Error(error.message, { cause: error });
    throw error;
  }
}
