import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';
import { startWebServer, type WebServer } from '../helpers/web-server.js';

// The seed's web demo in the built cairn, in a real terminal, on the offline model, against the
// recorded DuckDuckGo page on a loopback server: what a person typing sees.

const { start } = cairnTerminals();
let server: WebServer;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(async () => {
  await server.close();
});

const INTRO =
  'Welcome to vLLM — vLLM (https://docs.vllm.ai/en/latest/)\n\nvLLM is a fast and easy-to-use library for LLM inference and serving. Originally developed in the Sky Computing Lab at UC Berkeley, vLLM has evolved into a community-driven project.\n';

describe.skipIf(!TmuxTerminal.available())('the web demo in a real terminal', () => {
  it('搜索 vLLM 然后写入 intro.txt 然后总结: the search card shows the query and result count, the write is approved, intro.txt holds the finding, the summary appears', async () => {
    const { term, ws } = await start({ env: { CAIRN_WEB_SEARCH_URL: `${server.origin}/html/` }, columns: 120, rows: 40 });
    term.type('搜索 vLLM 然后写入 intro.txt 然后总结');
    term.keys('Enter');

    // The search runs unasked (read-only); its card names the query and counts the results.
    const searched = await term.waitForScreen((s) => s.split('\n').some((l) => l.includes('web_search') && l.includes('vLLM') && /\d+ results \(duckduckgo\)/.test(l)), 'the web_search card with its query and result count');
    expect(searched).toMatch(/✓ web_search vLLM\s+6 results \(duckduckgo\)/);
    expect(server.requests.some((r) => r.method === 'POST' && r.path === '/html/' && r.query === 'vLLM')).toBe(true);

    // The write asks; nothing is on disk until it is approved.
    await term.waitForText('Allow write_file?');
    await expect(fs.access(path.join(ws.dir, 'intro.txt'))).rejects.toThrow();
    await term.pauseBeforeAnswering();
    term.keys('y');

    const done = await term.waitForScreen((s) => !s.includes('Allow write_file?') && /Done\.\s+• web_search: 6 results for "vLLM"[^\n]*\n\s+• Wrote intro\.txt\./.test(s), 'the summary after the write');
    expect(done).toMatch(/✓ write_file intro\.txt\s+created, 3 lines/);
    expect(await fs.readFile(path.join(ws.dir, 'intro.txt'), 'utf8')).toBe(INTRO);
  });
});
