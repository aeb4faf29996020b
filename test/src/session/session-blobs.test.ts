// Images in session files go by reference (a content-addressed copy under the session's folder);
// a resumed session re-sends the same image, read back from that copy.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { attachFile } from '../../../src/attachments/attach-file.js';
import { IMAGE_LIMITS } from '../../../src/attachments/image-limits.js';
import { loadSession } from '../../../src/session/session-loader.js';
import { SessionWriter } from '../../../src/session/session-writer.js';
import { toAnthropicParams } from '../../../src/providers/anthropic-convert.js';
import { screenshotPng } from '../../helpers/image-files.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

describe('images in session files', () => {
  it('are written once under the session folder, named by their hash, and come back whole on load', async () => {
    const { dir, home } = await tempWorkspace();
    await fs.promises.writeFile(path.join(dir, 'shot.png'), await screenshotPng(300, 200));
    const shot = await attachFile(path.join(dir, 'shot.png'), 'shot.png', IMAGE_LIMITS.anthropic);
    if (shot.type !== 'image' || shot.source.type !== 'base64') throw new Error('not an inline image');
    const file = path.join(home, 'projects', 'ws', 's1.jsonl');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const writer = SessionWriter.create(file, { id: 's1', cwd: dir, created: new Date(0).toISOString() });
    writer.append({ type: 'user_prompt', text: 'see this', attachments: [shot] });
    writer.append({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'seen' }] } });
    writer.append({ type: 'user_prompt', text: 'and again', attachments: [shot] });
    writer.close();

    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(shot.source.data.slice(0, 100));
    const blobs = fs.readdirSync(path.join(home, 'projects', 'ws', 's1', 'attachments'));
    expect(blobs).toHaveLength(1);
    expect(blobs[0]).toMatch(/^[0-9a-f]{64}\.png$/);

    const loaded = await loadSession(file);
    expect(loaded.warnings).toEqual([]);
    const request = toAnthropicParams({ model: 'm', system: 's', messages: loaded.messages, tools: [], maxTokens: 10, signal: new AbortController().signal }, undefined);
    const first = request.messages[0]!.content as unknown[];
    expect(first[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: shot.source.data } });
  });

  it('a missing copy loads as a note naming the image, with a warning', async () => {
    const { dir, home } = await tempWorkspace();
    await fs.promises.writeFile(path.join(dir, 'shot.png'), await screenshotPng(30, 20));
    const shot = await attachFile(path.join(dir, 'shot.png'), 'shot.png', IMAGE_LIMITS.anthropic);
    const file = path.join(home, 's2.jsonl');
    const writer = SessionWriter.create(file, { id: 's2', cwd: dir, created: new Date(0).toISOString() });
    writer.append({ type: 'user_prompt', text: 'see this', attachments: [shot] });
    writer.close();
    fs.rmSync(path.join(home, 's2'), { recursive: true });
    const loaded = await loadSession(file);
    expect(loaded.warnings).toEqual([expect.stringContaining('the attachment shot.png')]);
    expect(loaded.messages[0]!.content[1]).toEqual({ type: 'text', text: '[image shot.png: its saved copy is missing, so it was not sent again]' });
  });
});
