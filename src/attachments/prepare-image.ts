import { createHash } from 'node:crypto';
import type { ImageBlock, ImageMediaType } from '../messages.js';
import { errorMessage } from '../util/error-message.js';
import { formatBytes } from './attachment-label.js';
import { MAX_IMAGE_PIXELS, type ImageLimits } from './image-limits.js';

import type { SharpConstructor, Sharp as Pipeline } from 'sharp';

type Sharp = SharpConstructor;

let loaded: Promise<Sharp> | undefined;

/** sharp (libvips, prebuilt per platform, no install script) loads on the first image, not at start-up. */
export function loadSharp(): Promise<Sharp> {
  loaded ??= import('sharp').then((m) => m.default);
  return loaded;
}

/** Why an image cannot be sent, in words naming the file; nothing is sent. */
export class ImageProblem extends Error {}

interface Encoded {
  data: Buffer;
  mediaType: ImageMediaType;
  width: number;
  height: number;
}

/**
 * An image file's bytes made ready to send: checked by decoding it whole (a truncated or corrupt
 * file is refused), an animation refused, and scaled down to fit `limits` (longest side, bytes)
 * when it does not. An image that fits is sent as it is. Throws ImageProblem naming `name`.
 */
export async function prepareImage(bytes: Buffer, mediaType: ImageMediaType, name: string, limits: ImageLimits): Promise<ImageBlock> {
  let sharp: Sharp;
  try {
    sharp = await loadSharp();
  } catch (error) {
    throw new ImageProblem(`${name}: cannot read images here: the image library (sharp) did not load for ${process.platform}-${process.arch} (${errorMessage(error)}).`);
  }
  const open = () => sharp(bytes, { failOn: 'truncated', limitInputPixels: MAX_IMAGE_PIXELS, animated: false });
  let meta;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageProblem(`${name} is not a readable image (${errorMessage(error)}).`);
  }
  const { width, height } = meta;
  if (!width || !height) throw new ImageProblem(`${name}: the image has no size in its header; it may be damaged.`);
  if (width * height > MAX_IMAGE_PIXELS) throw new ImageProblem(`${name} is ${width}x${height} pixels, over the ${MAX_IMAGE_PIXELS / 1_000_000} megapixel limit cairn decodes; crop or scale it first.`);
  if ((meta.pages ?? 1) > 1) throw new ImageProblem(`${name} is animated (${meta.pages} frames); attach a still image (a screenshot of the frame you mean).`);

  const rotated = (meta.orientation ?? 1) >= 5;
  const shown = { width: rotated ? height : width, height: rotated ? width : height };
  let encoded: Encoded;
  try {
    if (Math.max(width, height) <= limits.longestSide && bytes.length <= limits.maxBytes && (meta.orientation ?? 1) === 1) {
      // Sent as it is; decoded once anyway, so a truncated or corrupt file is refused here, not by the API.
      await open().raw().toBuffer();
      encoded = { data: bytes, mediaType, ...shown };
    } else {
      encoded = await scaleDown(open, mediaType, limits, meta.hasAlpha === true);
    }
  } catch (error) {
    if (error instanceof ImageProblem) throw error;
    throw new ImageProblem(`${name} could not be decoded (${errorMessage(error)}); the file may be truncated or damaged.`);
  }
  return {
    type: 'image',
    source: { type: 'base64', media_type: encoded.mediaType, data: encoded.data.toString('base64') },
    name,
    width: encoded.width,
    height: encoded.height,
    bytes: encoded.data.length,
  };
}

/**
 * Fits the longest side, then the bytes: PNG stays PNG (screenshots keep sharp text), JPEG and
 * WebP keep their format, a GIF becomes PNG; still too large, it goes as JPEG, then smaller.
 */
async function scaleDown(open: () => Pipeline, mediaType: ImageMediaType, limits: ImageLimits, alpha: boolean): Promise<Encoded> {
  let side = limits.longestSide;
  let asJpeg = false;
  for (let attempt = 0; attempt < 6; attempt++) {
    const resized = open().rotate().resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true });
    const type: ImageMediaType = asJpeg ? 'image/jpeg' : mediaType === 'image/gif' ? 'image/png' : mediaType;
    const piped =
      type === 'image/jpeg' ? (alpha ? resized.flatten({ background: '#ffffff' }) : resized).jpeg({ quality: 85 })
      : type === 'image/webp' ? resized.webp({ quality: 85 })
      : resized.png({ compressionLevel: 6 });
    const { data, info } = await piped.toBuffer({ resolveWithObject: true });
    if (data.length <= limits.maxBytes) return { data, mediaType: type, width: info.width, height: info.height };
    if (!asJpeg) asJpeg = true;
    else side = Math.floor(side * 0.75);
  }
  throw new ImageProblem(`the image stays over ${formatBytes(limits.maxBytes)} even scaled down`);
}

/** The content address of an attachment's bytes (session files keep them under this name). */
export function sha256Of(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
