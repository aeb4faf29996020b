// A provider for a protocol cairn does not speak yet, reduced to its shape: it streams the last
// user message back word by word, reports usage, and ends with the whole assistant message.
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../../src/providers/provider.js';
import { ProviderError } from '../../../src/providers/provider.js';

function lastUserText(request: ModelRequest): string {
  const last = request.messages.findLast((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

export function createEchoProvider(model = 'echo-1'): ModelProvider {
  return {
    name: 'echo',
    model,
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamEvent> {
      if (request.signal.aborted) throw new ProviderError('aborted before the call', undefined, false);
      const text = `You said: ${lastUserText(request)}`;
      for (const word of text.split(/(?<= )/)) yield { type: 'text_delta', text: word };
      yield { type: 'usage', usage: { input_tokens: request.system.length, output_tokens: text.split(' ').length } };
      yield { type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }] }, stopReason: 'end_turn' };
    },
  };
}
