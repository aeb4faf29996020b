import type { PromptSection } from '../../src/context/system-prompt.js';
import type { ImageTokenFormula } from '../../src/attachments/attachment-tokens.js';
import { estimateMessagesTokens, estimateTokens } from '../../src/context/tokens.js';
import { toolSpec } from '../../src/loop/tool-specs.js';
import type { Message } from '../../src/messages.js';
import type { AnyTool } from '../../src/tools/tool.js';
import { formatContext, formatTokens } from '../transcript/format-tokens.js';

export interface ContextSection {
  name: string;
  tokens: number;
}

const BAR_CELLS = 20;

/** What fills the context window: system prompt parts, tool schemas, memory files, the messages (images by `formula`, the provider's). */
export function contextSections(prompt: readonly PromptSection[], tools: readonly AnyTool[], messages: readonly Message[], formula: ImageTokenFormula = 'anthropic'): ContextSection[] {
  const out: ContextSection[] = [];
  for (const s of prompt) {
    const name = s.kind === 'memory' ? `memory: ${s.name}` : `system: ${s.name}`;
    out.push({ name, tokens: estimateTokens(s.text) });
  }
  const toolTokens = tools.reduce((sum, t) => sum + estimateTokens(JSON.stringify(toolSpec(t))), 0);
  out.push({ name: `tools (${tools.length})`, tokens: toolTokens });
  out.push({ name: `messages (${messages.length})`, tokens: estimateMessagesTokens(messages, formula) });
  return out;
}

function bar(tokens: number, window: number): string {
  const ratio = window > 0 ? Math.min(1, tokens / window) : 0;
  // Any use shows at least one cell, so a small section is not mistaken for an empty one.
  const filled = tokens > 0 ? Math.max(1, Math.round(ratio * BAR_CELLS)) : 0;
  return `${'▰'.repeat(filled)}${'▱'.repeat(BAR_CELLS - filled)}`;
}

function percent(tokens: number, window: number): string {
  const p = window > 0 ? (tokens / window) * 100 : 0;
  return `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

/** The /context text: a bar per section against the model's window, then the total. */
export function contextReport(sections: readonly ContextSection[], window: number, reported?: number): string {
  const total = sections.reduce((sum, s) => sum + s.tokens, 0);
  const nameWidth = Math.max(5, ...sections.map((s) => s.name.length));
  const line = (name: string, tokens: number): string => `${name.padEnd(nameWidth)}  ${bar(tokens, window)}  ${formatTokens(tokens).padStart(6)}  ${percent(tokens, window)}`;
  const lines = [
    `Context window: ${formatContext(window)} tokens (estimates, ~4 characters a token)`,
    ...sections.map((s) => line(s.name, s.tokens)),
    line('total', total),
    `${formatTokens(Math.max(0, window - total))} free.`,
  ];
  if (reported !== undefined && reported > 0) lines.push(`The provider reported ${formatTokens(reported)} in context after the last call.`);
  return lines.join('\n');
}
