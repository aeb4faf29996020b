/**
 * How big an image cairn sends, per provider API: larger ones are scaled down first (prepare-image.ts).
 * - Anthropic: images over 1568 px on the longest side are scaled down by the API anyway (costing
 *   time, not quality), and one image may be at most 5 MB of base64: 3.75 MB of bytes.
 * - OpenAI (and compatible servers): high detail fits an image inside 2048x2048; an image may be
 *   at most 20 MB. Unknown servers get the same.
 */
export interface ImageLimits {
  /** Pixels on the longest side. */
  longestSide: number;
  /** Bytes of the encoded image (before base64). */
  maxBytes: number;
}

export type AttachmentApi = 'anthropic' | 'openai';

export const IMAGE_LIMITS: Readonly<Record<AttachmentApi, ImageLimits>> = {
  anthropic: { longestSide: 1568, maxBytes: 3_750_000 },
  openai: { longestSide: 2048, maxBytes: 20_000_000 },
};

/** Whose limits apply to a provider: its API's, Anthropic's (the stricter) when it has none (the offline model). */
export function imageLimitsFor(provider: { api?: AttachmentApi }): ImageLimits {
  return IMAGE_LIMITS[provider.api ?? 'anthropic'];
}

/** Files larger than this are not read at all: no screenshot is, and a 200 MB "image" would only cost memory. */
export const MAX_IMAGE_FILE_BYTES = 50 * 1024 * 1024;
/** Pixels cairn will decode (a decompression bomb is refused before it is decoded). */
export const MAX_IMAGE_PIXELS = 100_000_000;
/** Anthropic's limits for one PDF document: 32 MB per request, 100 pages. */
export const MAX_PDF_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_PDF_DOCUMENT_PAGES = 100;
