// The offline model's web forms: `search <query>`, `fetch <url>`, and `write it to <file>` after
// them, which writes what the search or fetch found. Chinese: `搜索 <query>` (a web search; grep
// keeps its English name), `抓取 <url>`, `写入 <file>`. A trailing `then summarise` / `然后总结`
// needs no step: the offline model always ends with a summary.
import type { Message, ToolResultBlock } from '../messages.js';
import type { OfflinePlan, PlannedCall } from './offline-plan.js';

/** Stands in write_file's content until the call is made: replaced by what the last web result found. */
export const FINDING = '\u0000cairn-offline-finding\u0000';

const THEN = /\s*(?:,\s*)?(?:\bthen\b|然后|，然后|，)\s*/i;
const SUMMARISE = /^(?:summari[sz]e(?: it)?|总结(?:一下)?)[.。]?$/i;

function webStep(step: string): PlannedCall | undefined {
  const s = step.trim();
  let m: RegExpMatchArray | null;
  if ((m = /^(?:search(?:\s+the\s+web)?(?:\s+for)?|搜索|网上搜索|搜一下)\s*([\s\S]+)$/i.exec(s))) return { name: 'web_search', input: { query: (m[1] ?? '').trim() } };
  if ((m = /^(?:fetch|抓取|打开网页)\s*(https?:\/\/\S+)$/i.exec(s))) return { name: 'web_fetch', input: { url: m[1] ?? '' } };
  return undefined;
}

function writeFinding(step: string): PlannedCall | undefined {
  const m = /^(?:write\s+(?:it|that|the\s+finding|what\s+you\s+found|the\s+result)\s+to|写入|写到|把结果写入)\s*(\S+)$/i.exec(step.trim());
  return m ? { name: 'write_file', input: { path: m[1] ?? '', content: FINDING } } : undefined;
}

/**
 * A plan for a prompt with a web step in it, each other step through `parseStep` (the main
 * grammar's); undefined when there is no web step, so the main grammar decides as before.
 */
export function webPlan(text: string, parseStep: (step: string) => PlannedCall[] | undefined): OfflinePlan | undefined {
  const parts = text.split(THEN).filter((p) => p.trim() !== '');
  while (parts.length > 1 && SUMMARISE.test(parts.at(-1)?.trim() ?? '')) parts.pop();
  if (!parts.some((p) => webStep(p) !== undefined)) return undefined;
  const steps = parts.map((p) => {
    const web = webStep(p) ?? writeFinding(p);
    return web ? [web] : parseStep(p);
  });
  if (!steps.every((s): s is PlannedCall[] => s !== undefined && s.length > 0)) return undefined;
  return { kind: 'tools', steps };
}

function resultText(block: ToolResultBlock): string {
  return typeof block.content === 'string' ? block.content : block.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** What the last web_search or web_fetch of this turn found, as a line or two to write down. */
export function lastFinding(messages: readonly Message[]): string {
  const names = new Map<string, string>();
  let found = '';
  for (const m of messages) {
    for (const b of m.content) {
      if (b.type === 'tool_use') names.set(b.id, b.name);
      if (b.type !== 'tool_result' || b.is_error) continue;
      const tool = names.get(b.tool_use_id);
      const text = resultText(b);
      if (tool === 'web_search') {
        const hit = /^1\. \[(.*)\]\((\S+)\)(?:\n {3}(.*))?/m.exec(text);
        if (hit) found = `${hit[1]} (${hit[2]})${hit[3] ? `\n\n${hit[3]}` : ''}`;
      } else if (tool === 'web_fetch') {
        const body = /<untrusted-web-content[^>]*>\n([\s\S]*?)\n<\/untrusted-web-content>/.exec(text)?.[1] ?? '';
        // The block opens with the page's own facts (Content-Type:, Title:...), then its text.
        const para = body.split(/\n\s*\n/).map((p) => p.trim()).find((p) => p.length > 40 && !p.startsWith('#') && !/^(URL|Redirect|Content-Type|Title): /.test(p));
        const source = /^Fetched (\S+)/.exec(text)?.[1];
        if (para) found = `${para}${source ? `\n\n(${source})` : ''}`;
      }
    }
  }
  return found || 'Nothing was found.';
}

/** The planned calls with the finding put where a step asked for it. */
export function withFindings(calls: readonly PlannedCall[], messages: readonly Message[]): PlannedCall[] {
  return calls.map((c) => (c.input['content'] === FINDING ? { ...c, input: { ...c.input, content: `${lastFinding(messages)}\n` } } : c));
}
