import { performance } from 'node:perf_hooks';
import { IMAGE_LIMITS, type AttachmentApi } from '../../src/attachments/image-limits.js';
import { prepareImage } from '../../src/attachments/prepare-image.js';
import { screenshotPng } from '../helpers/image-files.js';

// Preparing a pasted 4000x3000 screenshot for each provider: decoded whole (a truncated file is
// refused), scaled to the provider's longest side, re-encoded under its byte limit (prepare-image.ts).
// The PNG is made once, screenshot-like (flat panels, a title bar, a line of text); the first,
// which also loads sharp, is not counted. Median and max of `runs`, per provider; goal < 300 ms.

export interface ImagePrepareFigures {
  api: AttachmentApi;
  inputBytes: number;
  width: number;
  height: number;
  sentBytes: number;
  medianMs: number;
  maxMs: number;
}

export async function benchImagePrepare(runs = 7): Promise<ImagePrepareFigures[]> {
  const png = await screenshotPng(4000, 3000);
  const out: ImagePrepareFigures[] = [];
  for (const api of ['anthropic', 'openai'] as const) {
    await prepareImage(png, 'image/png', 'shot.png', IMAGE_LIMITS[api]);
    const times: number[] = [];
    let block;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      block = await prepareImage(png, 'image/png', 'shot.png', IMAGE_LIMITS[api]);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    out.push({ api, inputBytes: png.length, width: block?.width ?? 0, height: block?.height ?? 0, sentBytes: block?.bytes ?? 0, medianMs: times[Math.floor(times.length / 2)] ?? 0, maxMs: times.at(-1) ?? 0 });
  }
  return out;
}
