import sharp from 'sharp';

// Real images for tests, made with the same library cairn decodes them with: a screenshot-like PNG
// (flat panels, some text), a photo-like JPEG, a GIF with one frame or several.

/** A screenshot-like picture: a dark window, a title bar, panels and a line of text. */
export async function screenshotPng(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#1e1e28"/>
    <rect width="100%" height="${Math.round(height / 20)}" fill="#3c3c50"/>
    <rect x="${Math.round(width / 20)}" y="${Math.round(height / 6)}" width="${Math.round(width / 3)}" height="${Math.round(height / 2)}" fill="#2d6a4f"/>
    <rect x="${Math.round(width / 2)}" y="${Math.round(height / 6)}" width="${Math.round(width / 3)}" height="${Math.round(height / 3)}" fill="#e9c46a"/>
    <text x="${Math.round(width / 20)}" y="${Math.round(height * 0.85)}" font-size="${Math.max(10, Math.round(height / 25))}" fill="#ffffff">TypeError: cannot read properties of undefined</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function photoJpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#4a7bd0' } }).jpeg({ quality: 90 }).toBuffer();
}

/** A GIF of `frames` frames (1: a still image). */
export async function gifOf(width: number, height: number, frames = 1): Promise<Buffer> {
  const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00'];
  const all = Buffer.concat(
    await Promise.all(Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 4, background: colours[i % colours.length] ?? '#000' } }).raw().toBuffer())),
  );
  return sharp(all, { raw: { width, height: height * frames, channels: 4, pageHeight: height } }).gif({ loop: 0 }).toBuffer();
}

/** The pixel size and format of encoded image bytes (base64 or raw). */
export async function imageInfo(data: string | Buffer): Promise<{ width: number; height: number; format: string }> {
  const meta = await sharp(typeof data === 'string' ? Buffer.from(data, 'base64') : data).metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? '' };
}
