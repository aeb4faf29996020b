import fs from 'node:fs/promises';
import type { AttachmentBlock } from '../messages.js';
import { readHead } from '../tools/binary.js';
import { formatBytes } from './attachment-label.js';
import { claimedType, sniffType, typeName, type AttachableType } from './file-kind.js';
import { MAX_IMAGE_FILE_BYTES, MAX_PDF_FILE_BYTES, type ImageLimits } from './image-limits.js';
import { ImageProblem, prepareImage } from './prepare-image.js';
import { PdfProblem, preparePdf } from './prepare-pdf.js';

/** Why a file cannot be attached, naming it; nothing is sent. */
export class AttachmentProblem extends Error {}

/** The image or PDF type of a file, by its content, or by its name when the content says nothing: undefined for anything else. */
export async function attachableType(file: string): Promise<AttachableType | undefined> {
  const head = await readHead(file, 16).catch(() => Buffer.alloc(0));
  return sniffType(head) ?? claimedType(file);
}

/**
 * A workspace file as an attachment: an image (PNG, JPEG, GIF, WebP) checked and scaled to
 * `limits`, or a PDF with its text. `shown` names it in every message. The caller has already
 * checked that the path may be read (workspace, Read rules). Throws AttachmentProblem.
 */
export async function attachFile(file: string, shown: string, limits: ImageLimits): Promise<AttachmentBlock> {
  const name = shown;
  let stat;
  try {
    stat = await fs.stat(file);
  } catch {
    throw new AttachmentProblem(`${name} cannot be attached: no such file.`);
  }
  if (!stat.isFile()) throw new AttachmentProblem(`${name} cannot be attached: it is not a regular file.`);
  const claimed = claimedType(file);
  const actual = sniffType(await readHead(file, 16));
  if (claimed && actual !== claimed && !(actual && claimed !== 'application/pdf' && actual !== 'application/pdf')) {
    const what = actual ? `a ${typeName(actual)} file` : 'not an image or PDF';
    throw new AttachmentProblem(`${name} is named like a ${typeName(claimed)} ${claimed === 'application/pdf' ? 'document' : 'image'} but its content is ${what}; nothing was sent.`);
  }
  const type = actual ?? claimed;
  if (!type) throw new AttachmentProblem(`${name} is not an image (PNG, JPEG, GIF, WebP) or a PDF.`);
  const limit = type === 'application/pdf' ? MAX_PDF_FILE_BYTES : MAX_IMAGE_FILE_BYTES;
  if (stat.size > limit) {
    throw new AttachmentProblem(`${name} is ${formatBytes(stat.size)}, over the ${formatBytes(limit)} limit for ${type === 'application/pdf' ? 'a PDF' : 'an image'}; nothing was sent.`);
  }
  const bytes = await fs.readFile(file);
  try {
    return type === 'application/pdf' ? await preparePdf(bytes, name) : await prepareImage(bytes, type, name, limits);
  } catch (error) {
    if (error instanceof ImageProblem || error instanceof PdfProblem) throw new AttachmentProblem(error.message);
    throw error;
  }
}
