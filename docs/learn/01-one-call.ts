// Step 1: one model call. A request goes in, a stream of events comes out; the last is the message.
import type { Message } from '../../src/messages.js';
import { defaultIo, type StepIo } from './learn-kit.js';

export async function main(io: StepIo = defaultIo()): Promise<Message> {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Say hello in five words.' }] }];
  for await (const event of io.model.stream({
    model: io.model.model,
    system: 'You are a helpful assistant.',
    messages,
    tools: [],
    maxTokens: 1024,
    signal: new AbortController().signal,
  })) {
    if (event.type === 'message') {
      const text = event.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
      io.write(`${io.model.name}/${io.model.model} answered (stop: ${event.stopReason}):\n${text}\n`);
      return event.message;
    }
  }
  throw new Error('The stream ended without a message');
}
