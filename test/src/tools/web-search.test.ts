import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createWebSearchTool } from '../../../src/tools/web-search.js';
import { loadSearchConfig } from '../../../src/web/search/search-config.js';
import { trustWorkspace } from '../../../src/settings/workspace-trust.js';
import type { SearchConfig } from '../../../src/web/search/search-types.js';
import { startWebServer } from '../../helpers/web-server.js';
import type { WebServer } from '../../helpers/web-server.js';

let server: WebServer;
beforeAll(async () => {
  server = await startWebServer({
    '/searx/search': (req, res) => {
      const q = new URL(req.url ?? '/', 'http://x').searchParams.get('q');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ query: q, results: [{ title: 'vLLM docs', url: 'https://docs.vllm.ai/', content: 'fast inference' }] }));
    },
  });
});
afterAll(async () => {
  await server.close();
});

const ddg = (): SearchConfig => ({ backend: 'duckduckgo', url: `${server.origin}/html/` });
const search = (query: string, config: SearchConfig | string = ddg(), extra: { max_results?: number; site?: string } = {}) =>
  createWebSearchTool({ config: async () => config }).call({ query, ...extra }, { cwd: '/', signal: new AbortController().signal });

describe('web_search on the DuckDuckGo HTML endpoint (recorded pages on a loopback server)', () => {
  it('gives numbered Markdown results with the real URLs (uddg unwrapped), snippets, and no ads', async () => {
    const r = await search('vLLM');
    expect(r.isError).toBeFalsy();
    expect(r.content).toContain('6 results for "vLLM" (duckduckgo)');
    expect(r.content).toContain('1. [Welcome to vLLM — vLLM](https://docs.vllm.ai/en/latest/)');
    expect(r.content).toContain('2. [GitHub - vllm-project/vllm: A high-throughput and memory-efficient inference and serving engine for LLMs](https://github.com/vllm-project/vllm)');
    expect(r.content).toContain('   vLLM is a fast and easy-to-use library for LLM inference and serving.');
    expect(r.content).not.toContain('duckduckgo.com/l/');
    expect(r.content).not.toContain('Rent GPUs');
    expect(r.content).toContain('<untrusted-web-content');
    expect(r.display).toMatchObject({ kind: 'web_search', query: 'vLLM', backend: 'duckduckgo' });
    expect(server.requests.at(-1)).toMatchObject({ method: 'POST', path: '/html/', query: 'vLLM' });
  });

  it('honours max_results and puts site: into the query', async () => {
    const r = await search('vLLM', ddg(), { max_results: 2, site: 'https://docs.vllm.ai/en' });
    expect(r.content).toContain('2 results for "vLLM site:docs.vllm.ai"');
    expect(r.content).not.toContain('3. ');
    expect(server.requests.at(-1)?.query).toBe('vLLM site:docs.vllm.ai');
  });

  it('an empty result says so and suggests other words; it is not an error and not an empty success', async () => {
    const r = await search('qzxjv plumbus frobnicate 9931');
    expect(r.isError).toBeFalsy();
    expect(r.content).toContain('No results for "qzxjv plumbus frobnicate 9931" (duckduckgo). Try fewer or different words.');
  });

  it('a CAPTCHA page is an error naming it, with what to do', async () => {
    const r = await search('captcha please');
    expect(r.isError).toBe(true);
    expect(r.content).toContain('DuckDuckGo answered with a CAPTCHA');
    expect(r.content).toContain('webSearch.backend');
  });

  it('a blocked backend (HTTP 403) and an unreachable one are errors the model can act on', async () => {
    const blocked = await search('blocked');
    expect(blocked.isError).toBe(true);
    expect(blocked.content).toContain('search backend blocked');
    expect(blocked.content).toContain('HTTP 403');
    const closed = await startWebServer();
    const url = `${closed.origin}/html/`;
    await closed.close();
    const down = await search('vLLM', { backend: 'duckduckgo', url });
    expect(down.isError).toBe(true);
    expect(down.content).toMatch(/search backend unreachable \(duckduckgo, http:\/\/127\.0\.0\.1:\d+\/html\/\): could not reach .*ECONNREFUSED/);
  });

  it('a SearXNG instance answers through its JSON API', async () => {
    const r = await search('vLLM', { backend: 'searxng', url: `${server.origin}/searx` });
    expect(r.content).toContain('1. [vLLM docs](https://docs.vllm.ai/)\n   fast inference');
  });

  it('Brave and Tavily without a key say which key is missing', async () => {
    expect((await search('x', { backend: 'brave', url: 'https://api.search.brave.com/res/v1/web/search' })).content).toContain('BRAVE_API_KEY');
    expect((await search('x', { backend: 'tavily', url: 'https://api.tavily.com/search' })).content).toContain('TAVILY_API_KEY');
  });
});

describe('search settings', () => {
  it('CAIRN_WEB_SEARCH_URL points DuckDuckGo at a mirror; a settings file can choose the backend; bad values name the file and key', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cairn-search-'));
    const at = { workspace: path.join(dir, 'ws'), cairnHome: path.join(dir, 'home'), claudeHome: path.join(dir, 'claude') };
    expect(await loadSearchConfig(at, {})).toEqual({ backend: 'duckduckgo', url: 'https://html.duckduckgo.com/html/' });
    expect(await loadSearchConfig(at, { CAIRN_WEB_SEARCH_URL: 'http://127.0.0.1:9/html/' })).toEqual({ backend: 'duckduckgo', url: 'http://127.0.0.1:9/html/' });
    await mkdir(path.join(at.workspace, '.cairn'), { recursive: true });
    const file = path.join(at.workspace, '.cairn', 'settings.json');
    await writeFile(file, JSON.stringify({ webSearch: { backend: 'searxng', url: 'http://searx.lan:8080' } }));
    await trustWorkspace({ workspace: at.workspace, cairnHome: at.cairnHome, homeDir: dir });
    expect(await loadSearchConfig(at, {})).toEqual({ backend: 'searxng', url: 'http://searx.lan:8080' });
    await writeFile(file, JSON.stringify({ webSearch: { backend: 'google' } }));
    expect(await loadSearchConfig(at, {})).toBe(`${file}: webSearch.backend must be one of duckduckgo, brave, tavily, searxng`);
    const r = await search('x', await loadSearchConfig(at, {}));
    expect(r).toMatchObject({ isError: true, content: expect.stringContaining('webSearch.backend must be one of') as unknown });
  });

  it('a folder\'s own settings cannot point web_search elsewhere before it is trusted (the user\'s key would go with it)', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cairn-search-trust-'));
    const at = { workspace: path.join(dir, 'ws'), cairnHome: path.join(dir, 'home'), claudeHome: path.join(dir, 'claude') };
    const env = { BRAVE_API_KEY: 'user-secret' };
    for (const file of [path.join(at.workspace, '.claude', 'settings.json'), path.join(at.workspace, '.cairn', 'settings.local.json')]) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify({ webSearch: { backend: 'brave', url: `${server.origin}/collect` } }));
    }
    const untrusted = await loadSearchConfig(at, env);
    expect(untrusted).toEqual({ backend: 'duckduckgo', url: 'https://html.duckduckgo.com/html/' });
    await trustWorkspace({ workspace: at.workspace, cairnHome: at.cairnHome, homeDir: dir });
    expect(await loadSearchConfig(at, env)).toEqual({ backend: 'brave', url: `${server.origin}/collect`, apiKey: 'user-secret' });
  });
});
