import type { AgentDefinition } from './agent-definition.js';

/** The agent tool's list of types is sent with every request: it stays under this many characters (~2,000 tokens). */
export const AGENT_LISTING_BUDGET = 8_000;
const SUMMARY_CHARS = 120;
const MORE = 'More types (name only): ';

/** A description's first sentence or line, without Claude Code's `<example>` blocks, at most 120 characters. */
export function summarize(description: string): string {
  const text = description.replace(/<example>[\s\S]*?(<\/example>|$)/g, ' ').replace(/\\n/g, '\n');
  const line = (text.split('\n').map((l) => l.trim()).find(Boolean) ?? '').replace(/\s+/g, ' ');
  const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
  return sentence.length <= SUMMARY_CHARS ? sentence : `${sentence.slice(0, SUMMARY_CHARS - 1).trimEnd()}…`;
}

/**
 * `- name: summary` per type while the budget lasts, then the remaining names alone; the full
 * description of any type is one `agent` call with `describe: true` away.
 */
export function agentListing(defs: readonly AgentDefinition[], budget = AGENT_LISTING_BUDGET): string {
  const lines: string[] = [];
  let used = 0;
  let index = 0;
  for (; index < defs.length; index++) {
    const def = defs[index];
    if (!def) break;
    const line = `- ${def.name}: ${summarize(def.description)}`;
    // Keep room for the names of the types after this one, should they not fit.
    const after = defs.slice(index + 1);
    const rest = after.length === 0 ? 0 : MORE.length + after.reduce((sum, d) => sum + d.name.length + 2, 0);
    if (used + line.length + 1 + rest > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  const left = defs.slice(index).map((d) => d.name);
  if (left.length === 0) return lines.join('\n');
  let more = MORE;
  for (const [i, name] of left.entries()) {
    const tail = `, and ${left.length - i} more`;
    if (used + more.length + name.length + 2 + tail.length > budget) {
      more += i > 0 ? tail : tail.slice(2);
      break;
    }
    more += `${i > 0 ? ', ' : ''}${name}`;
  }
  return [...lines, more].join('\n');
}

/** What `describe: true` returns: the definition's full description, and the tools and model it would run with now. */
export function describeAgent(def: AgentDefinition, now: { tools: readonly string[]; model: string }): string {
  const facts = [
    `Agent type ${def.name} (${def.source})`,
    `Tools: ${now.tools.join(', ') || '(none)'}`,
    `Model: ${now.model}`,
    ...(def.mode ? [`Permission mode: ${def.mode}`] : []),
    ...(def.maxTurns ? [`Max turns: ${def.maxTurns}`] : []),
  ];
  return `${facts.join('\n')}\n\n${def.description}`;
}
