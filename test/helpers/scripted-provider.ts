import type { Message } from '../../src/messages.js';
import type { ModelProvider, ModelRequest, ModelStreamEvent } from '../../src/providers/provider.js';

/** A provider that answers each call with the next scripted message, recording the requests. */
export function scriptedProvider(replies: Array<Message | ((req: ModelRequest) => Message) | Error>): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let i = 0;
  return {
    name: 'scripted',
    model: 'scripted-1',
    requests,
    async *stream(req): AsyncGenerator<ModelStreamEvent> {
      requests.push(req);
      const reply = replies[i++];
      if (reply === undefined) throw new Error('scripted provider: no more replies');
      if (reply instanceof Error) throw reply;
      const message = typeof reply === 'function' ? reply(req) : reply;
      for (const b of message.content) if (b.type === 'text') yield { type: 'text_delta', text: b.text };
      yield { type: 'message', message, stopReason: null };
    },
  };
}

export function toolCall(id: string, name: string, input: unknown): Message {
  return { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] };
}

export function toolCalls(...calls: Array<[string, string, unknown]>): Message {
  return { role: 'assistant', content: calls.map(([id, name, input]) => ({ type: 'tool_use' as const, id, name, input })) };
}

export function assistantText(text: string): Message {
  return { role: 'assistant', content: [{ type: 'text', text }] };
}
