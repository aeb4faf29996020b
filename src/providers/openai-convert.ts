import type OpenAI from 'openai';
import type { AttachmentBlock, ContentBlock, DocumentBlock, ImageBlock, Message, ToolResultBlock } from '../messages.js';
import { attachmentData, isAttachment, toolResultAttachments, toolResultText } from '../messages.js';
import { estimateTokens } from '../context/tokens.js';
import type { Usage } from '../usage.js';
import type { ModelStreamEvent, ToolSpec } from './provider.js';
import { IncompleteStreamError } from './retry.js';
import { parseToolArguments } from './tool-arguments.js';

// The only place that knows the OpenAI chat shape. The rest of cairn speaks the internal
// Anthropic-shaped history; this edge converts requests out and streamed chunks back.

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type Chunk = OpenAI.Chat.Completions.ChatCompletionChunk;

/** Internal history -> chat messages. Thinking is dropped: OpenAI-style APIs take no reasoning back. */
export function toOpenAIMessages(system: string, messages: Message[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  if (system !== '') out.push({ role: 'system', content: system });
  for (const message of messages) {
    if (message.role === 'assistant') out.push(...assistantToOpenAI(message.content));
    else out.push(...userToOpenAI(message.content));
  }
  return out;
}

function assistantToOpenAI(content: ContentBlock[]): ChatMessage[] {
  const text = content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  const toolCalls = content.flatMap((b) =>
    b.type === 'tool_use'
      ? [{ id: b.id, type: 'function' as const, function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }]
      : [],
  );
  if (text === '' && toolCalls.length === 0) return [];
  const message: OpenAI.Chat.Completions.ChatCompletionAssistantMessageParam = {
    role: 'assistant',
    content: text === '' ? null : text,
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return [message];
}

function userToOpenAI(content: ContentBlock[]): ChatMessage[] {
  // Tool messages must directly follow the assistant message that made the calls,
  // so they go first and any user text after them.
  const results = content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
  const out: ChatMessage[] = results.map((b) => ({ role: 'tool', tool_call_id: b.tool_use_id, content: toolMessageText(b) }));
  // Tool messages take text only: the images a tool read go to the model in the user message after them.
  const images = results.flatMap((b) => toolResultAttachments(b).filter((a): a is ImageBlock => a.type === 'image'));
  const texts = content.flatMap((b) => (b.type === 'text' ? [b.text] : b.type === 'document' ? [documentText(b)] : [])).filter((t) => t !== '');
  images.push(...content.filter((b): b is ImageBlock => b.type === 'image'));
  const text = texts.join('\n\n');
  if (images.length === 0) {
    if (text !== '') out.push({ role: 'user', content: text });
    return out;
  }
  const parts: OpenAI.Chat.Completions.ChatCompletionContentPart[] = text === '' ? [] : [{ type: 'text', text }];
  for (const image of images) parts.push({ type: 'image_url', image_url: { url: `data:${image.source.media_type};base64,${attachmentData(image)}` } });
  out.push({ role: 'user', content: parts });
  return out;
}

/** A PDF for a provider without document support: its extracted text, page by page, under its name. */
function documentText(block: DocumentBlock): string {
  return `<document name="${block.name}" pages="${block.pages}">\n${block.text}\n</document>`;
}

function toolMessageText(block: ToolResultBlock): string {
  const attached = typeof block.content === 'string' ? [] : block.content.filter(isAttachment);
  const text = [toolResultText(block), ...attached.map(attachedNote)].filter((t) => t !== '').join('\n\n');
  // Chat APIs have no is_error flag; the model still needs to know the call failed.
  return block.is_error ? `Error: ${text}` : text;
}

function attachedNote(block: AttachmentBlock): string {
  return block.type === 'document' ? documentText(block) : `(The image ${block.name} follows in the next user message.)`;
}

export function toOpenAITools(tools: ToolSpec[]): OpenAI.Chat.Completions.ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.input_schema },
  }));
}

// finish_reason in the internal (Anthropic) vocabulary the loop reads.
const STOP_REASONS: Record<string, string> = {
  stop: 'end_turn',
  tool_calls: 'tool_use',
  function_call: 'tool_use',
  length: 'max_tokens',
  content_filter: 'refusal',
};

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** Reasoning text some OpenAI-compatible servers add to deltas (DeepSeek, vLLM, OpenRouter). */
interface ReasoningDelta {
  reasoning_content?: string | null;
  reasoning?: string | null;
}

export interface OpenAIAssembler {
  push(chunk: Chunk): ModelStreamEvent[];
  /** The finished message; throws IncompleteStreamError when no finish_reason arrived. */
  finish(): { message: Message; usage: Usage | undefined; stopReason: string | null };
  /**
   * What a stream cut off before its end used. Usage comes only in the last chunk, so the prompt
   * (`promptTokens`) and the output so far are estimated. Undefined when nothing was received.
   */
  partialUsage(promptTokens: () => number): Usage | undefined;
}

/** Chunks of one streamed completion -> deltas now, and the whole message at the end. */
export function createOpenAIAssembler(newId: () => string): OpenAIAssembler {
  let text = '';
  let reasoning = '';
  const calls = new Map<number, PendingCall>();
  let finishReason: string | null = null;
  let usage: Usage | undefined;
  let received = false;

  function push(chunk: Chunk): ModelStreamEvent[] {
    const out: ModelStreamEvent[] = [];
    received = true;
    if (chunk.usage) usage = toUsage(chunk.usage);
    const choice = chunk.choices?.[0];
    if (!choice) return out;
    const delta = (choice.delta ?? {}) as Chunk['choices'][number]['delta'] & ReasoningDelta;
    const thought = delta.reasoning_content ?? delta.reasoning;
    if (typeof thought === 'string' && thought !== '') {
      reasoning += thought;
      out.push({ type: 'thinking_delta', text: thought });
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      text += delta.content;
      out.push({ type: 'text_delta', text: delta.content });
    }
    delta.tool_calls?.forEach((tc, position) => {
      // Some servers omit index when they send each call whole; fall back to its position.
      const index = typeof tc.index === 'number' ? tc.index : position;
      let call = calls.get(index);
      if (!call) {
        call = { id: '', name: '', args: '' };
        calls.set(index, call);
      }
      if (tc.id) call.id = tc.id;
      // A name normally arrives once; some servers repeat it in every delta.
      const name = tc.function?.name;
      if (name && name !== call.name) call.name += name;
      if (tc.function?.arguments) call.args += tc.function.arguments;
    });
    if (choice.finish_reason) finishReason = choice.finish_reason;
    return out;
  }

  function finish(): { message: Message; usage: Usage | undefined; stopReason: string | null } {
    if (finishReason === null) throw new IncompleteStreamError('the stream ended before a finish_reason');
    const content: ContentBlock[] = [];
    if (reasoning !== '') content.push({ type: 'thinking', thinking: reasoning });
    if (text !== '') content.push({ type: 'text', text });
    for (const [, call] of [...calls.entries()].sort((a, z) => a[0] - z[0])) {
      content.push({ type: 'tool_use', id: call.id || newId(), name: call.name, input: parseToolArguments(call.args) });
    }
    // Servers that stream tool calls sometimes still say 'stop'; the loop keys off tool_use.
    const stopReason = calls.size > 0 ? 'tool_use' : (STOP_REASONS[finishReason] ?? finishReason);
    return { message: { role: 'assistant', content }, usage, stopReason };
  }

  function partialUsage(promptTokens: () => number): Usage | undefined {
    if (usage) return usage;
    if (!received) return undefined;
    const args = [...calls.values()].map((c) => c.name + c.args).join('');
    return { input_tokens: promptTokens(), output_tokens: estimateTokens(reasoning + text + args), estimated: true };
  }

  return { push, finish, partialUsage };
}

function toUsage(u: OpenAI.Completions.CompletionUsage): Usage {
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  // Anthropic's input_tokens excludes cache reads; match it so cost math is the same for both.
  const usage: Usage = { input_tokens: Math.max(0, u.prompt_tokens - cached), output_tokens: u.completion_tokens };
  if (cached > 0) usage.cache_read_input_tokens = cached;
  return usage;
}
