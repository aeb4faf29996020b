import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import { servePages, type ServeRig } from '../helpers/serve-page.js';

// The page's tool cards follow the terminal's lifecycle (src/tools/card-lifecycle.ts, folded by the
// server in src/serve/card-fold.ts): the same statuses, and a card of its own per call even when a
// provider reuses a tool_use id.
const { run, openServePage } = servePages();

function emitAll(r: ServeRig, events: AgentEvent[]): void {
  const session = r.hub.get(r.hub.live()[0]?.id ?? '').runtime.session;
  for (const event of events) session.emit(event);
}

const start = (id: string, command: string): AgentEvent => ({ type: 'tool_start', id, name: 'bash', input: { command }, parallel: false, batch: 0, view: { title: command, subject: { kind: 'command', command } } });
const result = (id: string, content: string, isError: boolean): AgentEvent => ({ type: 'tool_result', id, name: 'bash', content, is_error: isError, duration_ms: 5 });

describe.skipIf(!run)('tool cards on the cairn serve page', () => {
  it('a denied call stays denied when its error result arrives, as in the terminal', async () => {
    const { r, page, close } = await openServePage();
    emitAll(r, [
      start('toolu_1', 'rm -rf build'),
      { type: 'permission_request', id: 'toolu_1', request_id: 'ask-1', name: 'bash', input: { command: 'rm -rf build' }, reason: 'bash changes files', suggestions: [] },
      { type: 'permission_denied', id: 'toolu_1', name: 'bash', reason: 'the user declined' },
      result('toolu_1', 'Permission denied: the user declined', true),
    ]);
    await page.waitForSelector('.item.tool .result', { state: 'attached' });
    expect(await page.getAttribute('.item.tool', 'class')).toBe('item tool denied');
    expect(await page.innerText('.item.tool .mark')).toBe('⊘');
    await close();
  }, 60_000);

  it('a provider that reuses a tool_use id gets two cards, each with its own status', async () => {
    const { r, page, close } = await openServePage();
    emitAll(r, [start('toolu_1', 'echo one'), result('toolu_1', 'one', false), start('toolu_1', 'false')]);
    await page.waitForSelector('.item.tool >> nth=1');
    emitAll(r, [result('toolu_1', 'exit 1', true)]);
    await page.waitForSelector('.item.tool.error');
    const cards = await page.locator('.item.tool').all();
    const shown = await Promise.all(cards.map(async (card) => [await card.getAttribute('class'), await card.locator('.arg').innerText()]));
    expect(shown).toEqual([
      ['item tool success', 'echo one'],
      ['item tool error', 'false'],
    ]);
    const keys = await Promise.all(cards.map((card) => card.getAttribute('data-tool')));
    expect(new Set(keys).size).toBe(2);
    await close();
  }, 60_000);

  it('a card still running when its turn ends shows interrupted', async () => {
    const { r, page, close } = await openServePage();
    emitAll(r, [start('toolu_9', 'sleep 60'), { type: 'terminal', reason: 'aborted', turns: 1, messages: [] }]);
    await page.waitForSelector('.item.tool.interrupted');
    expect(await page.innerText('.item.tool .mark')).toBe('■');
    await close();
  }, 60_000);
});
