import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { screenshotPng } from '../../helpers/image-files.js';
import { textPdf } from '../../helpers/pdf-files.js';
import { trackedServeRigs, type SseMessage } from '../../helpers/serve-rig.js';

// The page's upload path, without a browser: what the server takes, holds, sends and serves.
const rig = trackedServeRigs();
const isPrompt = (m: SseMessage) => m.event === 'agent' && m.data['type'] === 'user_prompt';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('cairn serve: images and PDFs from the page', () => {
  it('an upload is checked and held; the prompt takes it once; pages get its hash, not its bytes; the image is served from the session store', async () => {
    const r = await rig({ token: 'tok-123' });
    const id = await r.newSession();
    const png = await screenshotPng(640, 400);
    const up = await r.api(`/api/sessions/${id}/attachments`, { body: { name: 'C:\\Users\\me\\shot.png', data: png.toString('base64') } });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ type: 'image', name: 'shot.png', chip: '[image shot.png · 640x400]', width: 640, height: 400, bytes: png.length });

    const events = r.stream(`/api/sessions/${id}/events`);
    expect((await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'look', attachments: [up.body['id']] } })).status).toBe(202);
    const prompt = (await events.waitFor(isPrompt, 'the prompt event')).data as Extract<AgentEvent, { type: 'user_prompt' }>;
    expect(prompt.attachments).toEqual([{ type: 'image', source: { type: 'ref', media_type: 'image/png', sha256: sha256(png) }, name: 'shot.png', width: 640, height: 400, bytes: png.length }]);
    expect(JSON.stringify(events.messages)).not.toContain(png.toString('base64').slice(0, 200));

    // Sent once: the same id again is refused and nothing is sent.
    const again = await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'again', attachments: [up.body['id']] } });
    expect(again.status).toBe(400);
    expect(again.body['error']).toContain('is not waiting here');

    const image = await fetch(`${r.base}/api/sessions/${id}/images/${sha256(png)}`, { headers: { authorization: 'Bearer tok-123' } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
    // The token rules apply to pictures too.
    expect((await fetch(`${r.base}/api/sessions/${id}/images/${sha256(png)}`)).status).toBe(401);
    expect((await fetch(`${r.base}/api/sessions/${id}/images/${sha256(png)}?token=tok-123`)).status).toBe(200);
  }, 60_000);

  it('refuses what is not an image or PDF by its content, bad base64, and a prompt naming an unknown upload', async () => {
    const r = await rig();
    const id = await r.newSession();
    const fake = await r.api(`/api/sessions/${id}/attachments`, { body: { name: 'fake.png', data: Buffer.from('<svg onload=alert(1)>').toString('base64') } });
    expect(fake.status).toBe(400);
    expect(fake.body['error']).toBe('fake.png is not an image (PNG, JPEG, GIF, WebP) or a PDF; nothing was attached.');
    const garbled = await r.api(`/api/sessions/${id}/attachments`, { body: { name: 'x.png', data: 'not base64!' } });
    expect(garbled.status).toBe(400);
    expect(garbled.body['error']).toBe('data: base64 expected');
    const truncated = (await screenshotPng(300, 200)).subarray(0, 400);
    const cut = await r.api(`/api/sessions/${id}/attachments`, { body: { name: 'cut.png', data: truncated.toString('base64') } });
    expect(cut.status).toBe(400);
    expect(cut.body['error']).toMatch(/^cut\.png /);
    const unknown = await r.api(`/api/sessions/${id}/prompt`, { body: { text: 'look', attachments: ['no-such-upload'] } });
    expect(unknown.status).toBe(400);
    expect(r.hub.get(id).runtime.session.messages).toEqual([]);
    // A command takes no attachments.
    const pdf = await r.api(`/api/sessions/${id}/attachments`, { body: { name: 'spec.pdf', data: textPdf(['one']).toString('base64') } });
    expect(pdf.body).toMatchObject({ type: 'document', chip: '[pdf spec.pdf · 1 page]' });
    expect((await r.api(`/api/sessions/${id}/prompt`, { body: { text: '/help', attachments: [pdf.body['id']] } })).status).toBe(400);
  }, 60_000);

  it('a removed upload is not sent; pictures are served only by a hash of this session’s own images', async () => {
    const r = await rig();
    const a = await r.newSession();
    const b = await r.newSession();
    const png = await screenshotPng(64, 48);
    const up = await r.api(`/api/sessions/${a}/attachments`, { body: { name: 'a.png', data: png.toString('base64') } });
    expect((await r.api(`/api/sessions/${a}/attachments/${up.body['id']}`, { method: 'DELETE' })).status).toBe(200);
    expect((await r.api(`/api/sessions/${a}/prompt`, { body: { text: 'x', attachments: [up.body['id']] } })).status).toBe(400);

    const up2 = await r.api(`/api/sessions/${a}/attachments`, { body: { name: 'a.png', data: png.toString('base64') } });
    const events = r.stream(`/api/sessions/${a}/events`);
    await r.api(`/api/sessions/${a}/prompt`, { body: { text: 'x', attachments: [up2.body['id']] } });
    await events.waitFor(isPrompt, 'the prompt event');
    expect((await r.api(`/api/sessions/${a}/images/${sha256(png)}`)).status).toBe(200);
    expect((await r.api(`/api/sessions/${b}/images/${sha256(png)}`)).status).toBe(404); // another session's
    expect((await r.api(`/api/sessions/${a}/images/${sha256(png).slice(0, 63)}`)).status).toBe(404);
    expect((await r.api(`/api/sessions/${a}/images/..%2F..%2Fsettings.json`)).status).toBe(404);
    // An upload belongs to its session.
    const up3 = await r.api(`/api/sessions/${a}/attachments`, { body: { name: 'a.png', data: png.toString('base64') } });
    expect((await r.api(`/api/sessions/${b}/prompt`, { body: { text: 'x', attachments: [up3.body['id']] } })).status).toBe(400);
  }, 60_000);
});
