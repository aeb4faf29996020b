import fs from 'node:fs/promises';
import path from 'node:path';
import { prepareCairnDir } from '../util/cairn-dir.js';
import type { Message } from '../messages.js';
import { textOf, userText } from '../messages.js';
import type { ModelProvider } from '../providers/provider.js';
import { estimateMessagesTokens } from './tokens.js';
import { itemAt } from '../util/invariant.js';

export const COMPACTION_SYSTEM_PROMPT =
  'You are compacting a coding session so it can continue in a smaller context. Write a summary ' +
  'that lets the work continue without the earlier messages: the user\'s goals and instructions, ' +
  'decisions made, files read and changed (with paths), commands run and their outcomes, errors ' +
  'and how they were resolved, and what remains to do. Be specific and concise; use markdown.';

export const SUMMARY_PREFIX = 'This session continues from an earlier conversation that was compacted. Summary of it:';

export interface CompactionResult {
  messages: Message[];
  summary: string;
  tokensBefore: number;
  tokensAfter: number;
  summarisedCount: number;
}

/** The tail starts at the last plain user prompt, so no tool_use/tool_result pair is split. */
export function splitForCompaction(messages: readonly Message[]): { head: Message[]; tail: Message[] } {
  for (let i = messages.length - 1; i > 0; i--) {
    const m = itemAt(messages, i, 'message');
    const plainPrompt = m.role === 'user' && m.content.length > 0 && m.content.every((b) => b.type === 'text');
    if (plainPrompt) return { head: messages.slice(0, i), tail: messages.slice(i) };
  }
  return { head: [], tail: [...messages] };
}

/**
 * Summarises the head of the history with the model and keeps the tail verbatim.
 * Returns undefined when there is nothing before the last prompt to summarise.
 * Throws what the provider throws (the caller reports it and keeps the full history).
 */
export async function compactMessages(opts: {
  messages: readonly Message[];
  provider: ModelProvider;
  signal: AbortSignal;
  instructions?: string;
}): Promise<CompactionResult | undefined> {
  const { head, tail } = splitForCompaction(opts.messages);
  if (head.length === 0) return undefined;
  const ask = `Summarise the conversation above for the continuation.${opts.instructions ? `\n\nAlso: ${opts.instructions}` : ''}`;
  let summary: string | undefined;
  for await (const event of opts.provider.stream({
    model: opts.provider.model,
    system: COMPACTION_SYSTEM_PROMPT,
    messages: [...head, userText(ask)],
    tools: [],
    maxTokens: 8192,
    signal: opts.signal,
  })) {
    if (event.type === 'message') summary = textOf(event.message).trim();
  }
  if (!summary) throw new Error('the model returned an empty summary');
  const messages = [userText(`${SUMMARY_PREFIX}\n\n${summary}`), ...tail];
  return {
    messages,
    summary,
    tokensBefore: estimateMessagesTokens(opts.messages),
    tokensAfter: estimateMessagesTokens(messages),
    summarisedCount: head.length,
  };
}

/** A dated episodic note under .cairn/memory/ records what was summarised. */
export async function writeEpisodicNote(cwd: string, when: Date, result: CompactionResult, trigger: string): Promise<string> {
  const day = when.toISOString().slice(0, 10);
  const file = path.join(cwd, '.cairn', 'memory', `${day}.md`);
  await prepareCairnDir(path.join(cwd, '.cairn'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  const time = when.toISOString().slice(11, 16);
  await fs.appendFile(file, `## ${time} UTC: compaction (${trigger}), ${result.summarisedCount} messages summarised\n\n${result.summary}\n\n`);
  return file;
}
