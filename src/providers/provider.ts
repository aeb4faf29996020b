import type { Message } from '../messages.js';
import type { Usage } from '../usage.js';
import type { NoticeLevel } from '../events.js';

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema generated from the tool's zod schema. */
  input_schema: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  maxTokens: number;
  signal: AbortSignal;
  /** Called on every event the wire delivers (pings included): the stream is alive (stream-idle.ts). */
  onActivity?: () => void;
}

/** What a provider yields while streaming one model call. */
export type ModelStreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'notice'; level: NoticeLevel; message: string; code?: string }
  /** The complete assistant message; always the last event of a successful call. */
  | { type: 'message'; message: Message; stopReason: string | null };

export interface ModelProvider {
  /** Registry name: offline, anthropic, openai, ... */
  readonly name: string;
  readonly model: string;
  readonly offline?: boolean;
  /** The wire protocol, which decides how images are sized for it (attachments/image-limits.ts); absent: the offline model. */
  readonly api?: 'anthropic' | 'openai';
  /** The model's context window in tokens (config.json/preset, or the endpoint's list via /model); absent when unknown. */
  readonly contextWindow?: number;
  /**
   * Streams one model call. Throws ProviderError when the call fails for good (after retries);
   * the loop turns that into an `error` terminal and never keeps a half-written message.
   */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
