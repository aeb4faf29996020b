import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, Message } from '../messages.js';
import { estimateTokens } from '../context/tokens.js';
import type { Usage } from '../usage.js';
import type { ModelStreamEvent } from './provider.js';
import { IncompleteStreamError } from './retry.js';
import { parseToolArguments } from './tool-arguments.js';

type Pending =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; json: string; startInput: unknown };

export interface AnthropicAssembler {
  /** Feeds one raw stream event; returns what to yield right away. */
  push(event: Anthropic.RawMessageStreamEvent): ModelStreamEvent[];
  /** The finished message; throws IncompleteStreamError if message_stop never came. */
  finish(): { message: Message; usage: Usage; stopReason: string | null };
  /**
   * What a stream cut off before message_stop used: the input message_start reported, and the
   * output so far (the reported count, or an estimate from the text received when that is more).
   * Undefined when nothing was received.
   */
  partialUsage(): Usage | undefined;
}

/** Turns the raw SSE events of one call into deltas and, at message_stop, the whole message. */
export function createAnthropicAssembler(): AnthropicAssembler {
  const blocks = new Map<number, Pending>();
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  const ignored = new Set<string>();
  let stopReason: string | null = null;
  let stopped = false;
  let started = false;
  let receivedChars = '';

  function mergeUsage(u: Partial<Record<keyof Usage, number | null>> | null | undefined): void {
    if (!u) return;
    if (typeof u.input_tokens === 'number') usage.input_tokens = u.input_tokens;
    if (typeof u.output_tokens === 'number') usage.output_tokens = u.output_tokens;
    if (typeof u.cache_read_input_tokens === 'number') usage.cache_read_input_tokens = u.cache_read_input_tokens;
    if (typeof u.cache_creation_input_tokens === 'number') usage.cache_creation_input_tokens = u.cache_creation_input_tokens;
  }

  function push(event: Anthropic.RawMessageStreamEvent): ModelStreamEvent[] {
    switch (event.type) {
      case 'message_start':
        started = true;
        mergeUsage(event.message.usage);
        return [];
      case 'content_block_start': {
        const cb = event.content_block;
        if (cb.type === 'text') {
          blocks.set(event.index, { type: 'text', text: cb.text ?? '' });
          return cb.text ? [{ type: 'text_delta', text: cb.text }] : [];
        }
        if (cb.type === 'thinking') {
          blocks.set(event.index, { type: 'thinking', thinking: cb.thinking ?? '', signature: cb.signature ?? '' });
          return cb.thinking ? [{ type: 'thinking_delta', text: cb.thinking }] : [];
        }
        if (cb.type === 'redacted_thinking') {
          blocks.set(event.index, { type: 'redacted_thinking', data: cb.data });
          return [];
        }
        if (cb.type === 'tool_use') {
          blocks.set(event.index, { type: 'tool_use', id: cb.id, name: cb.name, json: '', startInput: cb.input });
          return [];
        }
        // Server tools and the like: cairn never asks for them, so say so instead of dropping silently.
        if (!ignored.has(cb.type)) {
          ignored.add(cb.type);
          return [{ type: 'notice', level: 'warning', message: `anthropic: ignored unsupported content block '${cb.type}'` }];
        }
        return [];
      }
      case 'content_block_delta': {
        const block = blocks.get(event.index);
        const d = event.delta;
        if (!block) return [];
        if (d.type === 'text_delta' && block.type === 'text') {
          block.text += d.text;
          receivedChars += d.text;
          return [{ type: 'text_delta', text: d.text }];
        }
        if (d.type === 'thinking_delta' && block.type === 'thinking') {
          block.thinking += d.thinking;
          receivedChars += d.thinking;
          return [{ type: 'thinking_delta', text: d.thinking }];
        }
        if (d.type === 'signature_delta' && block.type === 'thinking') {
          block.signature += d.signature;
          return [];
        }
        if (d.type === 'input_json_delta' && block.type === 'tool_use') {
          block.json += d.partial_json;
          receivedChars += d.partial_json;
        }
        return [];
      }
      case 'content_block_stop':
        return [];
      case 'message_delta':
        stopReason = event.delta.stop_reason ?? stopReason;
        mergeUsage(event.usage);
        return [];
      case 'message_stop':
        stopped = true;
        return [];
      default:
        return [];
    }
  }

  function finish(): { message: Message; usage: Usage; stopReason: string | null } {
    if (!stopped) throw new IncompleteStreamError('the stream ended before message_stop');
    const content: ContentBlock[] = [];
    for (const [, b] of [...blocks.entries()].sort((a, z) => a[0] - z[0])) {
      if (b.type === 'text') content.push({ type: 'text', text: b.text });
      else if (b.type === 'thinking') {
        content.push(b.signature ? { type: 'thinking', thinking: b.thinking, signature: b.signature } : { type: 'thinking', thinking: b.thinking });
      } else if (b.type === 'redacted_thinking') content.push({ type: 'redacted_thinking', data: b.data });
      else {
        // Some gateways send the whole input in content_block_start and no deltas.
        const input = b.json === '' && isNonEmptyObject(b.startInput) ? b.startInput : parseToolArguments(b.json);
        content.push({ type: 'tool_use', id: b.id, name: b.name, input });
      }
    }
    return { message: { role: 'assistant', content }, usage: { ...usage }, stopReason };
  }

  function partialUsage(): Usage | undefined {
    if (!started) return undefined;
    const estimate = estimateTokens(receivedChars);
    if (estimate <= usage.output_tokens) return { ...usage };
    return { ...usage, output_tokens: estimate, estimated: true };
  }

  return { push, finish, partialUsage };
}

function isNonEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && Object.keys(value).length > 0;
}
