import { describe, expect, it } from 'vitest';
import { messageOfLine } from '../../src/headless-input.js';

const line = (content: unknown): string => JSON.stringify({ type: 'user', message: { role: 'user', content } });
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('stream-json input: what a user message line carries', () => {
  it('text and Claude Code image/document blocks, in order, each named by its place', () => {
    const msg = messageOfLine(line([
      { type: 'text', text: 'compare' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
      { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: Buffer.from('%PDF-1.4').toString('base64') } },
    ]));
    expect(msg.text).toBe('compare');
    expect(msg.media.map((m) => [m.name, m.mediaType])).toEqual([['image-2.png', 'image/png'], ['document-3.pdf', 'application/pdf']]);
    expect(msg.media[0]!.data.equals(png)).toBe(true);
  });

  it('an image alone is a message', () => {
    expect(messageOfLine(line([{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } }])).text).toBe('');
  });

  it.each([
    [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } }, 'message.content[0] (image): only source.type "base64" is read, got "url"'],
    [{ type: 'image', source: { type: 'base64', media_type: 'image/bmp', data: 'AAAA' } }, 'message.content[0] (image): media_type "image/bmp" is not one cairn sends (image/png, image/jpeg, image/gif, image/webp)'],
    [{ type: 'document', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } }, 'message.content[0] (document): media_type "image/png" is not one cairn sends (application/pdf)'],
    [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'not base64!' } }, 'message.content[0] (image): source.data is not base64'],
  ])('%j is refused: %s', (block, message) => {
    expect(() => messageOfLine(line([block]))).toThrow(message);
  });
});
