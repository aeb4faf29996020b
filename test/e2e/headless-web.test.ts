import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ofType } from '../helpers/collect.js';
import { runCairn, tempWorkspace } from '../helpers/run-cairn.js';
import { startWebServer } from '../helpers/web-server.js';
import type { WebServer } from '../helpers/web-server.js';

let server: WebServer;
beforeAll(async () => {
  server = await startWebServer();
});
afterAll(async () => {
  await server.close();
});

describe('the web demo on the offline model (built binary, real process, recorded pages on a loopback server)', () => {
  it('搜索 vLLM 然后写入 intro.txt 然后总结: searches, writes the finding, summarises', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', '搜索 vLLM 然后写入 intro.txt 然后总结', '--output-format', 'stream-json', '--allowed-tools', 'Write'], {
      cwd: ws.dir,
      home: ws.home,
      env: { CAIRN_WEB_SEARCH_URL: `${server.origin}/html/` },
    });
    expect(run.code).toBe(0);
    expect(ofType(run.events, 'tool_start').map((s) => s.name)).toEqual(['web_search', 'write_file']);
    const search = ofType(run.events, 'tool_result')[0];
    expect(search).toMatchObject({ name: 'web_search', is_error: false, display: { kind: 'web_search', query: 'vLLM', backend: 'duckduckgo' } });
    expect(await fs.readFile(path.join(ws.dir, 'intro.txt'), 'utf8')).toBe(
      'Welcome to vLLM — vLLM (https://docs.vllm.ai/en/latest/)\n\nvLLM is a fast and easy-to-use library for LLM inference and serving. Originally developed in the Sky Computing Lab at UC Berkeley, vLLM has evolved into a community-driven project.\n',
    );
    const end = ofType(run.events, 'terminal')[0];
    expect(end?.reason).toBe('completed');
    expect(end?.result).toContain('Wrote `intro.txt`');
    expect(server.requests.some((r) => r.method === 'POST' && r.path === '/html/' && r.query === 'vLLM')).toBe(true);
  });

  it('fetch <url> then write it to notes.md: the article as Markdown, its first paragraph written', async () => {
    const ws = await tempWorkspace();
    const url = `${server.origin}/article`;
    const run = await runCairn(['-p', `fetch ${url} then write it to notes.md`, '--output-format', 'stream-json', '--allowed-tools', 'Write', 'WebFetch(domain:127.0.0.1)'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    const fetched = ofType(run.events, 'tool_result')[0];
    expect(fetched).toMatchObject({ name: 'web_fetch', is_error: false });
    expect(fetched?.content).toContain('## Throughput');
    expect(await fs.readFile(path.join(ws.dir, 'notes.md'), 'utf8')).toContain('PagedAttention borrows the idea of virtual memory');
  });

  it('without a rule naming the host, headless web_fetch is denied and says which rule would allow it', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', `fetch ${server.origin}/article`, '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    expect(run.code).toBe(0);
    const denied = ofType(run.events, 'permission_denied')[0];
    expect(denied?.reason).toContain('web_fetch(domain:127.0.0.1)');
  });

  it('a bare WebFetch rule lets the call through, but loopback is still refused (no rule names 127.0.0.1)', async () => {
    const ws = await tempWorkspace();
    const run = await runCairn(['-p', `fetch ${server.origin}/secret`, '--output-format', 'stream-json', '--allowed-tools', 'WebFetch'], { cwd: ws.dir, home: ws.home });
    const result = ofType(run.events, 'tool_result')[0];
    expect(result).toMatchObject({ name: 'web_fetch', is_error: true });
    expect(result?.content).toContain('refused: 127.0.0.1 is a loopback, private or link-local address');
  });

  it('a 1 MB bash output comes back short with the path, and read_file pages through it with no approval', async () => {
    const ws = await tempWorkspace();
    const big = await runCairn(['-p', "run seq 1 200000 | sed 's/^/line /'", '--output-format', 'stream-json', '--allowed-tools', 'Bash(seq *)', 'Bash(sed *)'], { cwd: ws.dir, home: ws.home });
    const result = ofType(big.events, 'tool_result')[0];
    expect(result?.content.length).toBeLessThan(6_000);
    const file = /saved to (\S+\.txt)$/m.exec(result?.content ?? '')?.[1] ?? '';
    expect(file.startsWith(path.join(ws.home, 'projects'))).toBe(true);
    const read = await runCairn(['-p', `read ${file}`, '--output-format', 'stream-json'], { cwd: ws.dir, home: ws.home });
    // A new session: another session's folder is outside the workspace, so headless denies it.
    expect(ofType(read.events, 'permission_denied')).toHaveLength(1);
  });
});
