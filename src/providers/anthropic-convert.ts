import type Anthropic from '@anthropic-ai/sdk';
import type { AttachmentBlock, ContentBlock, Message, TextBlock } from '../messages.js';
import { attachmentData } from '../messages.js';
import type { ModelRequest } from './provider.js';

export interface ThinkingOptions {
  enabled: boolean;
  budgetTokens: number;
}

type BlockParam = Anthropic.ContentBlockParam;

const EPHEMERAL = { type: 'ephemeral' } as const;

/** The request body for one streamed call. Builds fresh objects: the history is never mutated. */
export function toAnthropicParams(request: ModelRequest, thinking: ThinkingOptions | undefined): Anthropic.MessageCreateParamsStreaming {
  const messages = request.messages.map(toMessageParam);
  markLastBlockForCache(messages);
  const params: Anthropic.MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    system: [{ type: 'text', text: request.system, cache_control: EPHEMERAL }],
    messages,
    stream: true,
  };
  if (request.tools.length > 0) {
    params.tools = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.input_schema as Anthropic.Tool.InputSchema,
    }));
  }
  if (thinking?.enabled) {
    // The API requires max_tokens > budget_tokens; grow max_tokens rather than starve the answer.
    const budget = Math.max(1024, thinking.budgetTokens);
    params.thinking = { type: 'enabled', budget_tokens: budget };
    if (params.max_tokens <= budget) params.max_tokens = budget + request.maxTokens;
  }
  return params;
}

function toMessageParam(message: Message): Anthropic.MessageParam {
  const content: BlockParam[] = [];
  for (const block of message.content) {
    const param = toBlockParam(block);
    if (param) content.push(param);
  }
  return { role: message.role, content };
}

function toBlockParam(block: ContentBlock): BlockParam | undefined {
  switch (block.type) {
    case 'text':
      // The API rejects empty text blocks; an empty one carries nothing anyway.
      return block.text === '' ? undefined : { type: 'text', text: block.text };
    case 'thinking':
      // Unsigned thinking (from another provider, or the offline model) cannot be verified
      // by the API and would be rejected; it was only ever for display.
      return block.signature ? { type: 'thinking', thinking: block.thinking, signature: block.signature } : undefined;
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: block.data };
    case 'tool_use':
      return { type: 'tool_use', id: block.id, name: block.name, input: block.input ?? {} };
    case 'tool_result': {
      const param: Anthropic.ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: block.tool_use_id,
        content: typeof block.content === 'string' ? block.content : block.content.map(toResultPart),
      };
      if (block.is_error) param.is_error = true;
      return param;
    }
    case 'image':
    case 'document':
      return toAttachmentParam(block);
  }
}

function toResultPart(block: TextBlock | AttachmentBlock): Anthropic.TextBlockParam | Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam {
  return block.type === 'text' ? { type: 'text', text: block.text } : toAttachmentParam(block);
}

/** An image as an `image` block, a PDF as a `document` block titled with its file name. */
function toAttachmentParam(block: AttachmentBlock): Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam {
  if (block.type === 'image') return { type: 'image', source: { type: 'base64', media_type: block.source.media_type, data: attachmentData(block) } };
  return { type: 'document', title: block.name, source: { type: 'base64', media_type: 'application/pdf', data: attachmentData(block) } };
}

/** One cache breakpoint after the whole history, so the next turn reads it from the cache. */
function markLastBlockForCache(messages: Anthropic.MessageParam[]): void {
  const last = messages.at(-1);
  if (!last || typeof last.content === 'string') return;
  for (let i = last.content.length - 1; i >= 0; i--) {
    const block = last.content[i];
    // Thinking blocks cannot carry cache_control.
    if (!block || block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    last.content[i] = { ...block, cache_control: EPHEMERAL };
    return;
  }
}
