import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { attachFile, AttachmentProblem } from '../../../src/attachments/attach-file.js';
import { IMAGE_LIMITS } from '../../../src/attachments/image-limits.js';
import { gifOf, imageInfo, photoJpeg, screenshotPng } from '../../helpers/image-files.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function file(name: string, bytes: Buffer | string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-img-'));
  dirs.push(dir);
  const p = path.join(dir, name);
  await fs.writeFile(p, bytes);
  return p;
}

describe('attaching an image file', () => {
  it('scales a 4000x3000 screenshot to each provider’s longest side, keeping PNG', async () => {
    const p = await file('shot.png', await screenshotPng(4000, 3000));
    const forAnthropic = await attachFile(p, 'shot.png', IMAGE_LIMITS.anthropic);
    expect(forAnthropic).toMatchObject({ type: 'image', name: 'shot.png', width: 1568, height: 1176, source: { type: 'base64', media_type: 'image/png' } });
    if (forAnthropic.type !== 'image' || forAnthropic.source.type !== 'base64') throw new Error('not an inline image');
    expect(await imageInfo(forAnthropic.source.data)).toEqual({ width: 1568, height: 1176, format: 'png' });
    expect(forAnthropic.bytes).toBe(Buffer.from(forAnthropic.source.data, 'base64').length);
    const forOpenAI = await attachFile(p, 'shot.png', IMAGE_LIMITS.openai);
    expect(forOpenAI).toMatchObject({ width: 2048, height: 1536 });
  });

  it('sends an image within the limits byte for byte', async () => {
    const bytes = await photoJpeg(1280, 800);
    const block = await attachFile(await file('photo.jpg', bytes), 'photo.jpg', IMAGE_LIMITS.anthropic);
    expect(block).toMatchObject({ width: 1280, height: 800, bytes: bytes.length, source: { type: 'base64', media_type: 'image/jpeg', data: bytes.toString('base64') } });
  });

  it('goes by content, not name, between image types; a still GIF is attached', async () => {
    const block = await attachFile(await file('really-a-jpeg.png', await photoJpeg(64, 32)), 'really-a-jpeg.png', IMAGE_LIMITS.anthropic);
    expect(block).toMatchObject({ source: { media_type: 'image/jpeg' }, width: 64, height: 32 });
    expect(await attachFile(await file('still.gif', await gifOf(20, 10)), 'still.gif', IMAGE_LIMITS.anthropic)).toMatchObject({ source: { media_type: 'image/gif' }, width: 20, height: 10 });
  });

  it('refuses a text file named like an image, naming the file and what it is', async () => {
    const p = await file('shot.png', 'not a picture at all\n');
    await expect(attachFile(p, 'shot.png', IMAGE_LIMITS.anthropic)).rejects.toThrow(new AttachmentProblem('shot.png is named like a PNG image but its content is not an image or PDF; nothing was sent.'));
  });

  it('refuses a truncated JPEG', async () => {
    const whole = await photoJpeg(800, 600);
    const p = await file('cut.jpg', whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(attachFile(p, 'cut.jpg', IMAGE_LIMITS.anthropic)).rejects.toThrow(/^cut\.jpg could not be decoded \(.*\); the file may be truncated or damaged\.$/);
  });

  it('refuses an animated GIF, saying how many frames', async () => {
    const p = await file('spin.gif', await gifOf(16, 16, 3));
    await expect(attachFile(p, 'spin.gif', IMAGE_LIMITS.anthropic)).rejects.toThrow('spin.gif is animated (3 frames); attach a still image (a screenshot of the frame you mean).');
  });

  it('refuses a 200 MB PNG without reading it', async () => {
    const p = await file('huge.png', await screenshotPng(10, 10));
    await fs.truncate(p, 200 * 1024 * 1024); // sparse: the size is real, the disk is not used
    await expect(attachFile(p, 'huge.png', IMAGE_LIMITS.anthropic)).rejects.toThrow('huge.png is 200.0 MB, over the 50.0 MB limit for an image; nothing was sent.');
  });
});

