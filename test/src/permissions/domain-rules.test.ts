import { describe, expect, it } from 'vitest';
import { createPermissionChecker } from '../../../src/permissions/checker.js';
import { createWebFetchTool } from '../../../src/tools/web-fetch.js';
import type { AnyTool } from '../../../src/tools/tool.js';

const webFetch = createWebFetchTool({ allowPrivate: () => false }) as AnyTool;

function checker(allow: string[], deny: string[] = [], ask: string[] = []) {
  return createPermissionChecker({ workspace: '/tmp', mode: 'default', rules: { allow, ask, deny }, cairnHome: '/tmp/.cairn-test' });
}
const check = (c: ReturnType<typeof checker>, url: string) => c.check(webFetch, { url });

describe('WebFetch(domain:...) rules', () => {
  it('a domain rule allows that host only, in Claude Code spelling and cairn spelling', async () => {
    for (const rule of ['WebFetch(domain:docs.vllm.ai)', 'web_fetch(domain:docs.vllm.ai)']) {
      const c = checker([rule]);
      expect((await check(c, 'https://docs.vllm.ai/en/latest/')).behavior).toBe('allow');
      expect((await check(c, 'https://DOCS.vllm.ai./x')).behavior).toBe('allow');
      expect((await check(c, 'https://vllm.ai/')).behavior).toBe('ask');
      expect((await check(c, 'https://evil.docs.vllm.ai/')).behavior).toBe('ask');
      expect((await check(c, 'https://docs.vllm.ai.evil.com/')).behavior).toBe('ask');
    }
  });

  it('*.example.com covers subdomains, not example.com itself nor lookalikes', async () => {
    const c = checker(['WebFetch(domain:*.example.com)']);
    expect((await check(c, 'https://a.b.example.com/')).behavior).toBe('allow');
    expect((await check(c, 'https://example.com/')).behavior).toBe('ask');
    expect((await check(c, 'https://notexample.com/')).behavior).toBe('ask');
  });

  it('asks with a rule for the host as the "always allow" answer; deny and ask rules come first', async () => {
    const asked = await check(checker([]), 'https://pypi.org/project/vllm/');
    expect(asked).toMatchObject({ behavior: 'ask', suggestions: ['web_fetch(domain:pypi.org)'] });
    expect((await check(checker(['WebFetch'], ['WebFetch(domain:pypi.org)']), 'https://pypi.org/')).behavior).toBe('deny');
    expect((await check(checker(['WebFetch'], [], ['WebFetch(domain:pypi.org)']), 'https://pypi.org/')).behavior).toBe('ask');
    expect((await check(checker(['WebFetch']), 'https://pypi.org/')).behavior).toBe('allow');
  });

  it('a specifier that is not domain:... matches nothing (a URL-prefix rule does not silently allow)', async () => {
    expect((await check(checker(['WebFetch(https://docs.vllm.ai/*)']), 'https://docs.vllm.ai/x')).behavior).toBe('ask');
  });
});
