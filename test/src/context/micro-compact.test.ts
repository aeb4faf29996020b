import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { query } from '../../../src/loop/query.js';
import { toolResultText, userText, type Message } from '../../../src/messages.js';
import type { ModelRequest } from '../../../src/providers/provider.js';
import { createReadFileTool } from '../../../src/tools/read-file.js';
import { collect, ofType } from '../../helpers/collect.js';
import { realPermissions } from '../../helpers/real-permissions.js';
import { assistantText, scriptedProvider, toolCalls } from '../../helpers/scripted-provider.js';

// Micro-compaction through the loop, on real files read by the real read_file tool: what each
// request to the model carried.
let ws: string;
beforeEach(async () => {
  ws = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-micro-')));
});
afterEach(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

const STUB = /^\[Old result of .* cleared to save context/;

/** Each tool result a request carried, by the file it read: its text, or 'stub' when it was cleared. */
function resultsSent(request: ModelRequest | undefined, callFiles: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of request?.messages ?? []) {
    for (const b of m.content) {
      if (b.type === 'tool_result') out[callFiles.get(b.tool_use_id) ?? b.tool_use_id] = STUB.test(toolResultText(b)) ? 'stub' : 'full';
    }
  }
  return out;
}

async function writeFiles(names: string[]): Promise<void> {
  for (const name of names) await fs.writeFile(path.join(ws, name), `${name} says: ${'lorem ipsum '.repeat(40)}\n`);
}

function reads(prefix: string, names: string[]): Message {
  return toolCalls(...names.map((n): [string, string, unknown] => [`${prefix}-${n}`, 'read_file', { path: n }]));
}

describe('micro-compaction of a request', () => {
  it('sends every result of a 12-call batch in full the first time, and stubs them only once the model has seen them', async () => {
    const first = Array.from({ length: 12 }, (_, i) => `a${i + 1}.txt`);
    const second = Array.from({ length: 12 }, (_, i) => `b${i + 1}.txt`);
    await writeFiles([...first, ...second]);
    const provider = scriptedProvider([reads('r1', first), reads('r2', second), assistantText('read all 24')]);
    const callFiles = new Map([...first.map((n) => [`r1-${n}`, n] as const), ...second.map((n) => [`r2-${n}`, n] as const)]);

    const events = await collect(
      query({
        messages: [],
        prompt: userText('read the 24 files'),
        provider,
        tools: [createReadFileTool()],
        // The real chain in default mode: reads in the workspace need no approval.
        permissions: (await realPermissions({ workspace: ws })).permissions,
        system: () => 'system',
        cwd: ws,
        signal: new AbortController().signal,
        compaction: { thresholdTokens: 1_000_000 },
      }),
    );
    expect(ofType(events, 'terminal')[0]?.reason).toBe('completed');
    expect(provider.requests).toHaveLength(3);

    // The second request answers the first batch: all 12 results in full, none cleared unseen.
    const afterFirst = resultsSent(provider.requests[1], callFiles);
    expect(afterFirst).toEqual(Object.fromEntries(first.map((n) => [n, 'full'])));

    // The third carries the second batch in full; of the first batch, which the model has seen,
    // the older ones are cleared (the latest reads of three files are kept).
    const afterSecond = resultsSent(provider.requests[2], callFiles);
    expect(second.map((n) => afterSecond[n])).toEqual(second.map(() => 'full'));
    expect(first.map((n) => afterSecond[n])).toEqual(first.map(() => 'stub'));
    // The session's history keeps every result in full: only the request is trimmed.
    const history = ofType(events, 'terminal')[0]?.messages ?? [];
    const stubbed = history.flatMap((m) => m.content).filter((b) => b.type === 'tool_result' && STUB.test(toolResultText(b)));
    expect(stubbed).toEqual([]);
  });
});
