import { startScriptedServer } from './anthropic-server.js';
import type { Script, ScriptedResponse, ScriptedServer } from './anthropic-server.js';

// A scripted stand-in for OpenAI chat completions (`data: {...}` chunks, then `data: [DONE]`),
// on the same recording core as the Anthropic one. Its url already ends in /v1.

export type { RecordedRequest, Script, ScriptedResponse, ScriptedServer } from './anthropic-server.js';

export interface OpenAIRequestBody {
  model: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  reasoning_effort?: string;
  messages: Array<{
    role: 'system' | 'user' | 'assistant' | 'tool';
    content: string | null;
    tool_call_id?: string;
    tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  }>;
  tools?: Array<{ type: string; function: { name: string; description: string; parameters: unknown } }>;
}

export interface ScriptedToolCall {
  id: string;
  name: string;
  /** Sent verbatim, so a test can send invalid JSON. */
  arguments: string;
}

export interface OpenAIStreamOptions {
  text?: string;
  /** Sent as `reasoning_content`, as DeepSeek and vLLM do. */
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: 'tool_calls' when there are calls, else 'stop'. */
  finishReason?: string;
  /** Characters per delta; default: each part in one delta. */
  chunkSize?: number;
  /** Send the pieces of all tool calls interleaved instead of one call after another. */
  interleave?: boolean;
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  model?: string;
}

export function dataLine(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

function pieces(text: string, size: number | undefined): string[] {
  if (!size || text.length <= size) return [text];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The chunk sequence of one streamed completion, ending with the usage chunk and [DONE]. */
export function openaiStream(opts: OpenAIStreamOptions): string[] {
  const model = opts.model ?? 'gpt-test';
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    dataLine({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const chunks: string[] = [chunk({ role: 'assistant', content: '' })];
  if (opts.reasoning) for (const r of pieces(opts.reasoning, opts.chunkSize)) chunks.push(chunk({ reasoning_content: r }));
  if (opts.text) for (const t of pieces(opts.text, opts.chunkSize)) chunks.push(chunk({ content: t }));
  const calls = opts.toolCalls ?? [];
  const perCall = calls.map((call, index) => [
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }),
    ...pieces(call.arguments, opts.chunkSize).map((args) => chunk({ tool_calls: [{ index, function: { arguments: args } }] })),
  ]);
  if (opts.interleave) {
    const longest = Math.max(0, ...perCall.map((c) => c.length));
    for (let i = 0; i < longest; i++) for (const c of perCall) if (c[i] !== undefined) chunks.push(c[i] as string);
  } else {
    for (const c of perCall) chunks.push(...c);
  }
  chunks.push(chunk({}, opts.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop')));
  const usage = opts.usage ?? { prompt_tokens: 10, completion_tokens: 20 };
  chunks.push(
    dataLine({
      id: 'chatcmpl-test',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model,
      choices: [],
      usage: {
        prompt_tokens: usage.prompt_tokens,
        completion_tokens: usage.completion_tokens,
        total_tokens: usage.prompt_tokens + usage.completion_tokens,
        ...(usage.cached_tokens !== undefined && { prompt_tokens_details: { cached_tokens: usage.cached_tokens } }),
      },
    }),
  );
  chunks.push('data: [DONE]\n\n');
  return chunks;
}

export function openaiReply(opts: OpenAIStreamOptions): ScriptedResponse {
  return { chunks: openaiStream(opts) };
}

/** A non-streaming HTTP error reply with OpenAI's JSON error body. */
export function openaiHttpError(status: number, message: string, headers?: Record<string, string>): ScriptedResponse {
  const reply: ScriptedResponse = { status, body: { error: { message, type: 'invalid_request_error', param: null, code: null } } };
  if (headers) reply.headers = headers;
  return reply;
}

/** True when the request ends with tool messages (a script's cue to answer in text). */
export function hasToolResults(body: OpenAIRequestBody): boolean {
  return body.messages.at(-1)?.role === 'tool';
}

export function startOpenAIServer(script: Script<OpenAIRequestBody>): Promise<ScriptedServer<OpenAIRequestBody>> {
  return startScriptedServer(script, '/v1');
}
