import { randomUUID } from 'node:crypto';
import type { ContentBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../messages.js';
import { isAttachment, textOf, toolResultAttachments, toolResultText } from '../messages.js';
import { attachmentLabel } from '../attachments/attachment-label.js';
import { AbortError, sleep } from '../util/abort.js';
import { COMPACTION_SYSTEM_PROMPT } from '../context/compact.js';
import { MEMORY_UPDATES_HEADING } from '../context/memory-updates.js';
import { estimateMessagesTokens, estimateTokens } from '../context/tokens.js';
import { chunkText, generateMarkdown } from './offline-markdown.js';
import type { OfflinePlan, PlannedCall } from './offline-script.js';
import { planFor } from './offline-script.js';
import { withFindings } from './offline-web.js';
import { isRecovery, RECOVERY_ID, recoveryCalls, wasRecovered } from './offline-recovery.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from './provider.js';
import { itemAt } from '../util/invariant.js';

export const OFFLINE_MODEL = 'offline-scripted-1';
const DELTA_CHARS = 4;

export interface OfflineOptions {
  model?: string;
  /** Delay between ordinary text deltas, so the UI shows streaming like a real model. */
  deltaDelayMs?: number;
  /** The window it claims (the offline provider's config); absent: unknown. */
  contextWindow?: number;
}

/** A deterministic scripted model: no network, same answer for the same history. */
export function createOfflineProvider(options: OfflineOptions = {}): ModelProvider {
  const model = options.model ?? OFFLINE_MODEL;
  return {
    name: 'offline',
    model,
    offline: true,
    ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
    stream: (request) => streamOffline(request, options.deltaDelayMs ?? 0),
  };
}

async function* streamOffline(request: ModelRequest, deltaDelayMs: number): AsyncGenerator<ModelStreamEvent> {
  const { signal } = request;
  if (signal.aborted) throw new AbortError();
  const promptIndex = findPromptIndex(request.messages);
  // The last text block is the instruction: a compaction summary may sit before it in the same message.
  const promptBlocks = request.messages[promptIndex]?.content.filter((b): b is TextBlock => b.type === 'text' && !isReminder(b.text)) ?? [];
  const prompt = promptBlocks.at(-1)?.text ?? '';
  const plan = planFor(prompt);
  const after = request.messages.slice(promptIndex + 1);
  const step = after.filter((m) => m.role === 'assistant' && !isRecovery(m)).length;
  const recovery = plan.kind === 'tools' || plan.kind === 'script' ? recoveryCalls(after) : undefined;
  const scripted = plan.kind === 'script' && !recovery ? plan.next(after) : undefined;
  const inputTokens = estimateTokens(request.system) + estimateMessagesTokens(request.messages);

  const content: ContentBlock[] = [];
  let text = '';
  // Everything streamed so far, for the usage of a call cut off by Esc.
  let streamed = '';
  const emitText = async function* (full: string, delayMs: number, rate?: number): AsyncGenerator<ModelStreamEvent> {
    const start = Date.now();
    let i = 0;
    for (const piece of chunkText(full, DELTA_CHARS)) {
      if (signal.aborted) throw new AbortError();
      if (rate) {
        const due = start + (i * 1000) / rate;
        const wait = due - Date.now();
        if (wait > 0) await sleep(wait, signal);
      } else if (delayMs > 0) {
        await sleep(delayMs, signal);
      } else if (i % 256 === 255) {
        // As fast as possible, but let timers and input run.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      i++;
      text += piece;
      streamed += piece;
      yield { type: 'text_delta', text: piece };
    }
  };

  try {
    yield* streamContent();
  } catch (error) {
    // Interrupted: the tokens "used" so far count, as a real provider's would.
    yield { type: 'usage', usage: { input_tokens: inputTokens, output_tokens: estimateTokens(streamed), estimated: true } };
    throw error;
  }
  const outputTokens = estimateTokens(JSON.stringify(content));
  yield { type: 'usage', usage: { input_tokens: inputTokens, output_tokens: outputTokens } };
  const hasTools = content.some((b) => b.type === 'tool_use');
  yield { type: 'message', message: { role: 'assistant', content }, stopReason: hasTools ? 'tool_use' : 'end_turn' };

  // The answer itself, into `content`; a function so an interruption anywhere in it is caught once.
  async function* streamContent(): AsyncGenerator<ModelStreamEvent> {
    if (request.system === COMPACTION_SYSTEM_PROMPT) {
      yield* emitText(summarizeConversation(request.messages.slice(0, -1)), deltaDelayMs);
    } else if (plan.kind === 'stream') {
      yield* emitText(generateMarkdown(plan.words), 0, plan.rate);
    } else if (plan.kind === 'think') {
      const thought = `The user asked me to think about ${plan.topic}. I will consider it step by step and answer briefly.`;
      for (const piece of chunkText(thought, 8)) {
        if (signal.aborted) throw new AbortError();
        if (deltaDelayMs > 0) await sleep(deltaDelayMs, signal);
        yield { type: 'thinking_delta', text: piece };
      }
      content.push({ type: 'thinking', thinking: thought, signature: 'offline' });
      yield* emitText(`Having thought about **${plan.topic}**: it is worth doing one small step at a time.`, deltaDelayMs);
    } else if (recovery || scripted || (plan.kind === 'tools' && step < plan.steps.length)) {
      const calls = recovery ?? scripted ?? (plan.kind === 'tools' ? withFindings(itemAt(plan.steps, step, 'planned step'), after) : []);
      yield* emitText(`${describeCalls(calls)}\n`, deltaDelayMs);
      content.push({ type: 'text', text });
      const prefix = recovery ? RECOVERY_ID : 'toolu_off_';
      calls.forEach((call, i) => {
        const use: ToolUseBlock = { type: 'tool_use', id: `${prefix}${randomUUID().replace(/-/g, '').slice(0, 12)}_${i}`, name: call.name, input: call.input };
        content.push(use);
      });
      text = '';
    } else if (plan.kind === 'script' && plan.finish) {
      yield* emitText(plan.finish(after), deltaDelayMs);
    } else if (plan.kind === 'tools' || plan.kind === 'script') {
      yield* emitText(summarize(request.messages, promptIndex), deltaDelayMs);
    } else {
      yield* emitText(acknowledge(request.messages[promptIndex]) + chatReply(plan), deltaDelayMs);
    }
    if (text) content.push({ type: 'text', text });
  }
}

/** The last user message with text of its own (not just tool results) is the instruction. */
function findPromptIndex(messages: readonly Message[]): number {
  return messages.findLastIndex((m) => m.role === 'user' && m.content.some((b) => b.type === 'text' && b.text.trim() !== '' && !isReminder(b.text)));
}

function describeCalls(calls: PlannedCall[]): string {
  const parts = calls.map((c) => {
    const arg = c.input['path'] ?? c.input['command'] ?? c.input['pattern'] ?? c.input['cron'] ?? c.input['description'] ?? '';
    return `\`${c.name}\` ${typeof arg === 'string' ? arg : JSON.stringify(arg)}`.trim();
  });
  return calls.length > 1 ? `Running ${parts.length} tools together: ${parts.join(', ')}.` : `Running ${parts[0] ?? 'a tool'}.`;
}

function summarize(messages: readonly Message[], promptIndex: number): string {
  const uses = new Map<string, ToolUseBlock>();
  const results: ToolResultBlock[] = [];
  const after = messages.slice(promptIndex + 1);
  for (const m of after) {
    for (const b of m.content) {
      if (b.type === 'tool_use') uses.set(b.id, b);
      if (b.type === 'tool_result' && !wasRecovered(b, after)) results.push(b);
    }
  }
  const lines = results.map((r) => {
    const use = uses.get(r.tool_use_id);
    return `- ${describeResult(use, r)}`;
  });
  const failed = results.filter((r) => r.is_error).length;
  const head = failed === 0 ? 'Done.' : `Done, with ${failed} of ${results.length} tool calls failing.`;
  return `${head}\n\n${lines.join('\n')}\n`;
}

function describeResult(use: ToolUseBlock | undefined, result: ToolResultBlock): string {
  const text = toolResultText(result);
  const input = (use?.input ?? {}) as Record<string, unknown>;
  const name = use?.name ?? 'tool';
  const firstLine = text.split('\n')[0] ?? '';
  if (result.is_error) return `\`${name}\` failed: ${firstLine}`;
  const attached = toolResultAttachments(result);
  if (attached.length > 0) return `Looked at ${attached.map((a) => attachmentLabel(a)).join(', ')}.`;
  switch (name) {
    case 'read_file': {
      const count = text.split('\n').filter((l) => /^\s*\d+\t/.test(l)).length;
      return `Read \`${String(input['path'])}\`: ${count} line${count === 1 ? '' : 's'}.`;
    }
    case 'write_file':
      return `Wrote \`${String(input['path'])}\`.`;
    case 'edit_file':
      return `Edited \`${String(input['path'])}\`.`;
    case 'bash': {
      const out = text.trimEnd().split('\n');
      const tail = out.slice(-5).join('\n');
      return `Ran \`${String(input['command'])}\`:\n\n\`\`\`\n${tail}\n\`\`\``;
    }
    case 'list_dir':
      return `Listed \`${String(input['path'])}\`: ${text.split('\n').filter(Boolean).length} entries.`;
    case 'grep':
      return `Searched for \`${String(input['pattern'])}\`: ${firstLine}`;
    case 'agent':
      return `The ${String(input['type'])} subagent (${String(input['description'])}) reported: ${text.replace(/\s*\n+\s*/g, ' ').trim().slice(0, 300)}`;
    default:
      return `\`${name}\`: ${firstLine}`;
  }
}

/** The offline model sees attachments only as what they are: it says so, by name and size. */
function acknowledge(prompt: Message | undefined): string {
  const attached = (prompt?.content ?? []).filter(isAttachment);
  return attached.length === 0 ? '' : `I received ${attached.map((a) => attachmentLabel(a)).join(', ')}.\n\n`;
}

function chatReply(plan: Extract<OfflinePlan, { kind: 'chat' }>): string {
  const echo = plan.text.length > 60 ? `${plan.text.slice(0, 57)}...` : plan.text;
  return (
    `I am cairn's **offline model**: a scripted stand-in used when no provider is configured.\n\n` +
    `You said: _${echo || '(nothing)'}_\n\n` +
    `Try \`read <file>\`, \`run <command>\`, \`list <dir>\`, \`grep <pattern>\`, ` +
    '`edit <file>: replace <old> with <new>` or `stream 200`. Set `ANTHROPIC_API_KEY` or `OPENAI_API_KEY` for a real model.\n'
  );
}

/** The deterministic compaction summary: what was asked, which tools ran, the last answer. */
function summarizeConversation(messages: readonly Message[]): string {
  const prompts: string[] = [];
  const tools: string[] = [];
  let lastAnswer = '';
  for (const m of messages) {
    for (const b of m.content) {
      if (m.role === 'user' && b.type === 'text') prompts.push((b.text.split('\n')[0] ?? '').slice(0, 120));
      if (b.type === 'tool_use') tools.push(`${b.name} ${JSON.stringify(b.input).slice(0, 80)}`);
    }
    if (m.role === 'assistant') {
      const t = textOf(m).trim();
      if (t) lastAnswer = (t.split('\n')[0] ?? '').slice(0, 200);
    }
  }
  return [
    `Summary of ${messages.length} earlier messages.`,
    '',
    `- The user asked: ${prompts.map((p) => `"${p}"`).join('; ') || '(nothing)'}`,
    `- Tools used: ${tools.join('; ') || 'none'}`,
    `- Last answer: ${lastAnswer || '(none)'}`,
    '',
    MEMORY_UPDATES_HEADING,
    ...memorySignals(prompts).map((s) => `- ${s}`),
  ].join('\n');
}

/** The offline model's memory updates: "remember that ..." is a project fact, "I prefer ..." a preference. */
function memorySignals(prompts: readonly string[]): string[] {
  const found: string[] = [];
  for (const p of prompts) {
    const fact = /^(?:please\s+)?(?:remember|note)(?:\s+that)?[:,]?\s+(.+)$/i.exec(p)?.[1];
    if (fact) found.push(`MEMORY: ${fact}`);
    else if (/\b(?:I prefer|I like|I always|I never|I use|call me)\b/i.test(p)) found.push(`USER: ${p}`);
  }
  return found.length > 0 ? found : ['none'];
}

function isReminder(text: string): boolean {
  return text.startsWith('<system-reminder>');
}
