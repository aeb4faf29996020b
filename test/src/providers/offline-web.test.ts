import { describe, expect, it } from 'vitest';
import { planFor } from '../../../src/providers/offline-script.js';
import { FINDING } from '../../../src/providers/offline-web.js';

describe('the offline model reads web prompts', () => {
  it.each([
    ['search vLLM paged attention', [[{ name: 'web_search', input: { query: 'vLLM paged attention' } }]]],
    ['fetch https://docs.vllm.ai/en/latest/', [[{ name: 'web_fetch', input: { url: 'https://docs.vllm.ai/en/latest/' } }]]],
    ['搜索 vLLM 然后写入 intro.txt', [[{ name: 'web_search', input: { query: 'vLLM' } }], [{ name: 'write_file', input: { path: 'intro.txt', content: FINDING } }]]],
    ['search vLLM then write the finding to notes.md then summarise', [[{ name: 'web_search', input: { query: 'vLLM' } }], [{ name: 'write_file', input: { path: 'notes.md', content: FINDING } }]]],
    ['search vLLM then read a.txt', [[{ name: 'web_search', input: { query: 'vLLM' } }], [{ name: 'read_file', input: { path: 'a.txt' } }]]],
  ])('%s', (prompt, steps) => {
    expect(planFor(prompt)).toEqual({ kind: 'tools', steps });
  });

  it('grep stays grep, and plain writes keep their meaning', () => {
    expect(planFor('grep TODO')).toMatchObject({ kind: 'tools', steps: [[{ name: 'grep' }]] });
    expect(planFor('write hello to c.txt')).toMatchObject({ kind: 'tools', steps: [[{ name: 'write_file', input: { content: 'hello\n' } }]] });
  });
});
