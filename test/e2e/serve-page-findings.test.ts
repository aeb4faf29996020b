import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/events.js';
import type { Finding } from '../../src/tools/report-findings-display.js';
import { servePages } from '../helpers/serve-page.js';

// A review's findings (report_findings, as /review and /security-review report them) show on the
// cairn serve page as cards, as they do in the terminal: severity, file:line, what, why, the fix.
const { run, openServePage } = servePages();

const FINDINGS: Finding[] = [
  { file: 'src/db.ts', line: 42, severity: 'high', title: 'SQL built from user input', why: 'the name goes into the query unescaped', fix: 'use a bound parameter' },
  { file: 'src/log.ts', line: 7, severity: 'low', title: 'Token logged', why: 'the debug line prints the API token', fix: 'drop the token from the line', excerpt: { start: 6, lines: ['function debug() {', '  log(token);', '}'] } },
];

describe.skipIf(!run)('review findings on the cairn serve page', () => {
  it('shows each finding as a card under the report_findings call', async () => {
    const { r, page, close } = await openServePage();
    const session = r.hub.get(r.hub.live()[0]?.id ?? '').runtime.session;
    const input = { findings: FINDINGS, summary: 'two problems in the diff' };
    const events: AgentEvent[] = [
      { type: 'tool_start', id: 'toolu_f', name: 'report_findings', input, parallel: false, batch: 0 },
      { type: 'tool_result', id: 'toolu_f', name: 'report_findings', content: '2 findings reported', is_error: false, duration_ms: 1, display: { kind: 'report_findings', findings: FINDINGS, summary: 'two problems in the diff' } },
    ];
    for (const event of events) session.emit(event);
    await page.waitForSelector('.findings .finding >> nth=1');
    expect(await page.innerText('.findings-head')).toBe('2 findings: two problems in the diff');
    const cards = await page.locator('.finding').all();
    const shown = await Promise.all(cards.map(async (c) => [await c.getAttribute('class'), await c.locator('.where').innerText(), await c.locator('.title').innerText(), await c.locator('.why').innerText(), await c.locator('.fix').innerText()]));
    expect(shown).toEqual([
      ['finding high', 'src/db.ts:42', 'SQL built from user input', 'the name goes into the query unescaped', 'Fix: use a bound parameter'],
      ['finding low', 'src/log.ts:7', 'Token logged', 'the debug line prints the API token', 'Fix: drop the token from the line'],
    ]);
    expect(await cards[1]!.locator('.excerpt').innerText()).toContain('   7    log(token);');
    // Visible without opening the call's details: the cards are what the user reads.
    expect(await page.isVisible('.finding >> nth=0')).toBe(true);
    await close();
  }, 60_000);
});
