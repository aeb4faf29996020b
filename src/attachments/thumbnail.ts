import type { ImageBlock } from '../messages.js';
import { loadSharp } from './prepare-image.js';

/** Longest side of a transcript thumbnail, in pixels: a few rows of cells, not the picture sent. */
export const THUMBNAIL_PX = 320;

/** A small PNG (base64) of an image the prompt carried, for a terminal that draws pictures; undefined for one saved by reference only. */
export async function thumbnailPng(block: ImageBlock): Promise<string | undefined> {
  if (block.source.type !== 'base64') return undefined;
  const sharp = await loadSharp();
  const png = await sharp(Buffer.from(block.source.data, 'base64'))
    .resize(THUMBNAIL_PX, THUMBNAIL_PX, { fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer();
  return png.toString('base64');
}
