import { afterEach, describe, expect, it } from 'vitest';
import { anthropicReply, startAnthropicServer, type AnthropicRequestBody, type ScriptedServer } from '../helpers/anthropic-server.js';
import { anthropicModelsReply, isModelList } from '../helpers/model-list-replies.js';
import { cairnTerminals } from '../helpers/tmux-cairn.js';
import { TmuxTerminal } from '../helpers/tmux.js';

// /model in the built cairn, in a real terminal, against a loopback Anthropic server that lists its
// models (GET /v1/models) and answers prompts: the list shows prices, the choice is the next request's model.
const { start } = cairnTerminals();
const servers: ScriptedServer<AnthropicRequestBody>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe.skipIf(!TmuxTerminal.available())('/model in a real terminal', () => {
  it('opens the list with context sizes and prices, switches to the model chosen, and the next request names it', async () => {
    const server = await startAnthropicServer((req) =>
      isModelList(req) ? anthropicModelsReply(['claude-opus-5-5', 'claude-sonnet-5-5', 'claude-haiku-5-5']) : anthropicReply([{ type: 'text', text: `answered by ${req.body.model}` }]),
    );
    servers.push(server);
    const { term } = await start({ args: '--provider anthropic', env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url }, columns: 120, rows: 40 });
    term.type('/model');
    term.keys('Enter');
    const list = await term.waitForText('claude-haiku-5-5', 30_000);
    expect(list).toMatch(/› claude-sonnet-5-5 \(current\) +200k +\$2 \/ \$10/);
    expect(list).toMatch(/ claude-opus-5-5 +200k +\$4 \/ \$20/);
    expect(list).toMatch(/ claude-haiku-5-5 +200k +\$0\.10 \/ \$0\.50/);
    expect(list).toContain('Ctrl+S use and save as default');
    expect(server.requests.filter(isModelList).map((r) => [r.path, r.headers['x-api-key']])).toEqual([['/v1/models?limit=100', 'sk-test']]);

    term.keys('Down');
    await term.waitForText('› claude-opus-5-5');
    term.keys('Enter');
    const switched = await term.waitForText('Model set to claude-opus-5-5 (anthropic)');
    // The header names it.
    expect(switched.split('\n').find((l) => l.includes('cairn ·'))).toContain('claude-opus-5-5 (anthropic)');

    term.type('which model are you?');
    term.keys('Enter');
    await term.waitForText('answered by claude-opus-5-5', 30_000);
    const prompts = server.requests.filter((r) => r.method === 'POST');
    expect(prompts.map((r) => r.body.model)).toEqual(['claude-opus-5-5']);
    expect(JSON.stringify(prompts[0]?.body.messages)).toContain('which model are you?');
  }, 120_000);

  it('Alt+P (Claude Code’s key) opens the list over a typed draft; Enter switches, the draft is still there, the bar shows the new window and the next request names the model', async () => {
    const server = await startAnthropicServer((req) =>
      isModelList(req)
        ? anthropicModelsReply([{ id: 'claude-small-1', max_input_tokens: 40_000 }, { id: 'claude-large-1', max_input_tokens: 1_000_000 }])
        : anthropicReply([{ type: 'text', text: `answered by ${req.body.model}` }]),
    );
    servers.push(server);
    const { term } = await start({ args: '--provider anthropic', env: { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: server.url }, columns: 120, rows: 40 });
    term.type('refactor the parser');
    await term.waitForText('> refactor the parser');
    term.keys('M-p');
    const list = await term.waitForText('claude-large-1', 30_000);
    expect(list).toMatch(/› claude-sonnet-5-5 \(current\) +200k/);
    expect(list).toMatch(/ claude-small-1 +40k/);
    expect(list).toContain('> refactor the parser');

    term.keys('Down');
    await term.waitForText('› claude-small-1');
    term.keys('Enter');
    const switched = await term.waitForText('Model set to claude-small-1 (anthropic)');
    expect(switched).not.toContain('claude-large-1');
    expect(switched).toContain('> refactor the parser');
    expect(switched).toMatch(/ctx \S+ 0\/40k/);

    term.keys('Enter');
    await term.waitForText('answered by claude-small-1', 30_000);
    const prompts = server.requests.filter((r) => r.method === 'POST');
    expect(prompts.map((r) => r.body.model)).toEqual(['claude-small-1']);
    expect(JSON.stringify(prompts[0]?.body.messages)).toContain('refactor the parser');
  }, 120_000);
});
