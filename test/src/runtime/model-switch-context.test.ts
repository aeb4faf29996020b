// After /model, what depends on the model's context window follows the model chosen: the limit the
// context bar shows (session_start's context_window) and the auto-compaction threshold (80% of it).
// A real runtime against a loopback Anthropic server whose model list gives two models different
// context sizes (max_input_tokens), chosen from the same list /model's picker shows.
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/events.js';
import { builtinPriceTable } from '../../../src/pricing.js';
import { modelCatalog } from '../../../src/providers/model-catalog.js';
import { anthropicReply, type AnthropicRequestBody, type RecordedRequest } from '../../helpers/anthropic-server.js';
import { anthropicRuntime, closeAnthropicRuntimes } from '../../helpers/anthropic-runtime.js';
import { ofType } from '../../helpers/collect.js';
import { anthropicModelsReply, isModelList } from '../../helpers/model-list-replies.js';

afterEach(closeAnthropicRuntimes);

const SMALL = { id: 'claude-small-1', max_input_tokens: 40_000 };
const LARGE = { id: 'claude-large-1', max_input_tokens: 1_000_000 };
const COMPACTION_SUMMARY = 'summary of the early work';

// About 4 characters a token (src/context/tokens.ts): 20k and 15k tokens of prompt.
const FIRST = `first part: ${'lorem ipsum '.repeat(6_700)}`;
const SECOND = `second part: ${'dolor sit amet '.repeat(4_000)}`;

/** The summary request (compaction) is told apart by its system prompt; other prompts get "ok". */
const isSummaryRequest = (req: RecordedRequest<AnthropicRequestBody>): boolean => JSON.stringify(req.body.system ?? '').includes('You are compacting a coding session');

async function switched(to: { id: string; max_input_tokens: number } | undefined) {
  const rig = await anthropicRuntime({
    script: (req) =>
      isModelList(req)
        ? anthropicModelsReply([SMALL, LARGE])
        : anthropicReply([{ type: 'text', text: isSummaryRequest(req) ? COMPACTION_SUMMARY : 'ok' }]),
  });
  const { runtime } = rig;
  const events: AgentEvent[] = [];
  runtime.session.subscribe((e) => events.push(e));
  await runtime.session.run(FIRST);
  if (to) {
    // As the picker does: the row's context size goes with the choice.
    const catalog = await modelCatalog({ cairnHome: runtime.cairnHome, env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: rig.server.url }, current: { provider: 'anthropic', model: runtime.session.model }, prices: builtinPriceTable });
    const row = catalog.rows.find((r) => r.model === to.id);
    expect(row?.contextWindow).toBe(to.max_input_tokens);
    runtime.session.switchModel(to.id, { provider: 'anthropic', ...(row?.contextWindow !== undefined ? { contextWindow: row.contextWindow } : {}) });
  }
  await runtime.session.run(SECOND);
  return { ...rig, events };
}

describe('switching to a model with another context window', () => {
  it('the session_start after the switch carries the new window (the context bar’s limit), and the next turn compacts at 80% of it', async () => {
    const { runtime, server, events } = await switched(SMALL);
    expect(runtime.session.contextWindow).toBe(40_000);
    expect(ofType(events, 'session_start').map((e) => [e.model, e.context_window])).toEqual([['claude-small-1', 40_000]]);

    // ~35k tokens of history: over 32k (80% of 40k), far under the start-up window's 160k.
    const [compacted] = ofType(events, 'compact');
    expect(compacted?.trigger).toBe('auto');
    expect(compacted?.tokens_before).toBeGreaterThan(32_000);
    expect(compacted?.tokens_before).toBeLessThan(160_000);
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((r) => [r.body.model, isSummaryRequest(r)])).toEqual([
      ['claude-sonnet-5-5', false],
      ['claude-small-1', true],
      ['claude-small-1', false],
    ]);
    expect(JSON.stringify(posts[2]?.body.messages)).toContain(COMPACTION_SUMMARY);
  });

  it('the same turns on the start-up model (200k) or after switching to a larger window do not compact', async () => {
    const stayed = await switched(undefined);
    expect(ofType(stayed.events, 'compact')).toEqual([]);
    expect(stayed.runtime.session.contextWindow).toBe(200_000);

    const larger = await switched(LARGE);
    expect(ofType(larger.events, 'compact')).toEqual([]);
    expect(ofType(larger.events, 'session_start').map((e) => e.context_window)).toEqual([1_000_000]);
  });

  it('/model NAME with no list to say otherwise: the provider’s own window', async () => {
    const { runtime, events } = await switched(undefined);
    runtime.session.switchModel('claude-opus-5-5');
    expect(runtime.session.contextWindow).toBe(200_000);
    expect(ofType(events, 'session_start').at(-1)?.context_window).toBe(200_000);
  });
});
