// Images and PDFs a page pastes or drops into its prompt box: uploaded one by one (checked and
// scaled as soon as they arrive, so the chip shows the size that will be sent, or the reason it
// cannot go), held by the server under an id until the prompt that names them is sent.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import * as z from 'zod';
import { attachmentChip, attachmentLabel } from '../attachments/attachment-label.js';
import { sniffType, type AttachableType } from '../attachments/file-kind.js';
import { MAX_IMAGE_FILE_BYTES, MAX_PDF_FILE_BYTES } from '../attachments/image-limits.js';
import { prepareInputMedia } from '../attachments/input-media.js';
import type { ImageLimits } from '../attachments/image-limits.js';
import type { AttachmentBlock } from '../messages.js';
import { errorMessage } from '../util/error-message.js';
import { HttpError } from './http-error.js';

/** The largest file a page may upload (an image's limit; a PDF's is lower), as base64 in JSON. */
const MAX_FILE_BYTES = Math.max(MAX_IMAGE_FILE_BYTES, MAX_PDF_FILE_BYTES);
export const MAX_UPLOAD_BODY_BYTES = Math.ceil(MAX_FILE_BYTES / 3) * 4 + 64 * 1024;
/** Uploads a session holds before its next prompt: more is a page gone wrong. */
export const MAX_PENDING_UPLOADS = 20;

export const UploadBody = z.strictObject({
  name: z.string().min(1).max(1000),
  data: z.string().min(1).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64 expected'),
});

/** What the page shows for an upload: its chip and label, the id the prompt names it by. */
export interface UploadView {
  id: string;
  type: 'image' | 'document';
  name: string;
  chip: string;
  label: string;
  width?: number;
  height?: number;
  pages?: number;
  bytes: number;
}

/** A name fit to show: the file's own name without any folder, no control characters, not too long. */
export function uploadName(given: string): string {
  const base = path.posix.basename(given.replaceAll('\\', '/')).replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  return (base || 'pasted').slice(0, 120);
}

/**
 * The bytes as an attachment, by their content (the name's extension and the browser's type are
 * not trusted): an image or a PDF with the checks a file gets; anything else a 400 naming it.
 */
export async function prepareUpload(body: z.infer<typeof UploadBody>, limits: ImageLimits): Promise<AttachmentBlock> {
  const name = uploadName(body.name);
  const data = Buffer.from(body.data, 'base64');
  const type: AttachableType | undefined = sniffType(data.subarray(0, 16));
  if (!type) throw new HttpError(400, `${name} is not an image (PNG, JPEG, GIF, WebP) or a PDF; nothing was attached.`);
  try {
    return await prepareInputMedia({ name, data, mediaType: type }, limits);
  } catch (error) {
    throw new HttpError(400, errorMessage(error));
  }
}

export function uploadView(id: string, block: AttachmentBlock): UploadView {
  return {
    id,
    type: block.type,
    name: block.name,
    chip: attachmentChip(block),
    label: attachmentLabel(block),
    ...(block.type === 'image' ? { width: block.width, height: block.height } : { pages: block.pages }),
    bytes: block.bytes,
  };
}

/** One session's uploads waiting for their prompt. */
export class PendingUploads {
  private readonly held = new Map<string, AttachmentBlock>();

  add(block: AttachmentBlock): string {
    if (this.held.size >= MAX_PENDING_UPLOADS) throw new HttpError(409, `${MAX_PENDING_UPLOADS} attachments are waiting already: send the prompt or remove some`);
    const id = randomUUID();
    this.held.set(id, block);
    return id;
  }

  /** The blocks named, in order, taken out; an unknown id is a 400 and takes nothing. */
  take(ids: readonly string[]): AttachmentBlock[] {
    const blocks = [...new Set(ids)].map((id) => {
      const block = this.held.get(id);
      if (!block) throw new HttpError(400, `attachments: ${id} is not waiting here (removed, sent already, or uploaded to another session)`);
      return block;
    });
    for (const id of ids) this.held.delete(id);
    return blocks;
  }

  remove(id: string): boolean {
    return this.held.delete(id);
  }
}
