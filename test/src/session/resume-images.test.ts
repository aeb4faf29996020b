import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/bootstrap.js';
import { IMAGE_LIMITS } from '../../../src/attachments/image-limits.js';
import { prepareImage } from '../../../src/attachments/prepare-image.js';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../../helpers/anthropic-server.js';
import { screenshotPng } from '../../helpers/image-files.js';
import { tempWorkspace } from '../../helpers/run-cairn.js';

// A prompt's image lives on in the session: rewound past a later prompt, it is still sent; resumed
// (as `cairn -c` / `--resume` open it), it is sent again from its saved copy, the same bytes. The
// session file names it by hash, it does not hold its base64.
let server: ScriptedServer<AnthropicRequestBody> | undefined;
const runtimes: Runtime[] = [];
afterEach(async () => {
  for (const r of runtimes.splice(0)) r.close();
  await server?.close();
});

function imagesIn(body: AnthropicRequestBody): string[] {
  return body.messages.flatMap((m) => m.content.flatMap((b) => (b.type === 'image' ? [(b as { source: { data: string } }).source.data] : [])));
}

describe('images in history', () => {
  it('survive a rewind and a resume: the request carries the same base64', async () => {
    server = await startAnthropicServer(() => anthropicReply([{ type: 'text', text: 'ok' }]));
    const ws = await tempWorkspace({});
    const userHome = path.join(path.dirname(ws.dir), 'user');
    await fs.mkdir(userHome, { recursive: true });
    const env = { HOME: userHome, CAIRN_HOME: ws.home, ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url };
    const open = async (more: { continueLatest?: boolean; resumeId?: string } = {}) => {
      const r = await createRuntime({ cwd: ws.dir, env, interactive: false, provider: 'anthropic', ...more });
      runtimes.push(r);
      return r;
    };

    const first = await open();
    const image = await prepareImage(await screenshotPng(2400, 1500), 'image/png', 'shot.png', IMAGE_LIMITS.anthropic);
    const data = image.source.type === 'base64' ? image.source.data : '';
    await first.session.run('what is wrong here?', [image]);
    expect(imagesIn(server.requests[0]?.body as AnthropicRequestBody)).toEqual([data]);
    await first.session.run('and this line?');

    // Rewound to before the second prompt: the first prompt's image stays.
    const second = first.session.rewindPoints.at(-1);
    expect(second?.text).toBe('and this line?');
    expect(await first.session.rewind(second?.turn ?? -1)).toBe(true);
    await first.session.run('try again');
    const afterRewind = server.requests.at(-1)?.body as AnthropicRequestBody;
    expect(afterRewind.messages.flatMap((m) => m.content.filter((b) => b.type === 'text').map((b) => b['text']))).not.toContain('and this line?');
    expect(imagesIn(afterRewind)).toEqual([data]);
    const file = first.sessionFile ?? '';
    first.close();
    runtimes.splice(0);

    // By reference on disk: the bytes once under the session's folder, no base64 in the file.
    const saved = await fs.readFile(file, 'utf8');
    expect(saved).not.toContain(data.slice(0, 100));
    expect(saved).toContain('"type":"ref"');

    for (const how of [{ continueLatest: true }, { resumeId: path.basename(file, '.jsonl') }]) {
      const resumed = await open(how);
      const before = server.requests.length;
      await resumed.session.run('one more thing');
      expect(server.requests.length).toBe(before + 1);
      expect(imagesIn(server.requests.at(-1)?.body as AnthropicRequestBody)).toEqual([data]);
      resumed.close();
      runtimes.splice(0);
    }
  }, 60_000);
});
